import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { stdSerializers, type LevelWithSilent, type LoggerOptions } from 'pino';

/**
 * Query parameters that carry a secret somewhere in the gateway or in what reaches it: signed links (`signature`,
 * `expires` is not one), a frame's `link`, OAuth's `code`/`state` and tokens, a hook's `secret` (Avito signs
 * nothing it posts, so the address it posts to holds the channel's), a token wrongly put in a query string, and the
 * names other services sign their addresses with (`X-Goog-Signature`, `X-Amz-Credential`, `jwt`, `auth`).
 */
const SECRET_PARAMS = new Set([
  'secret',
  'sig',
  'link',
  'code',
  'state',
  'key',
  'auth',
  'authorization',
  'bearer',
  'pass',
  'pwd',
  'otp',
  'session',
  'sessionid',
  'session_id',
  'sid',
  'assertion',
  'client_assertion',
  'hub.verify_token',
]);
/** Any name holding one of these is one too: `client_secret`, `x-amz-signature`, `id_token`, `apikey`, `jwt_assertion`. */
const SECRET_PART = /token|secret|signature|passw|jwt|credential|api[-_]?key|private[-_]?key|access[-_]?key/;

/** A parameter's name as a server reads it: `%73ignature` is `signature`, `+` a space; decoded until it stays put. */
function decodedName(name: string): string {
  let decoded = name.replaceAll('+', ' ');
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      break;
    }
    if (next === decoded) break;
    decoded = next;
  }
  return decoded.trim().toLowerCase();
}

const isSecretParam = (name: string) => {
  const decoded = decodedName(name);
  return SECRET_PARAMS.has(decoded) || SECRET_PART.test(decoded);
};

const QUERY_PARAM = /([?&])([^=&#\s"'?]+)=[^&#\s"']*/g;

/** Text (an address, a message) with the value of every secret query parameter replaced, told by its decoded name. */
export const withoutSecrets = (text: string): string =>
  text.includes('=') ? text.replace(QUERY_PARAM, (whole, separator: string, name: string) => (isSecretParam(name) ? `${separator}${name}=[redacted]` : whole)) : text;

/** A request as the log tells it: Fastify's own fields, with the secrets of its address taken out. */
export function loggedRequest(req: { method: string; url: string; host?: string; ip?: string; headers?: Record<string, unknown>; socket?: { remotePort?: number } }) {
  return {
    method: req.method,
    url: withoutSecrets(req.url),
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

const redactedError = (err: Error) => {
  const plain = stdSerializers.err(err);
  return { ...plain, message: withoutSecrets(plain.message), stack: withoutSecrets(plain.stack) };
};

/** One argument of a log call with secrets taken out of its strings: the message, and the object's own fields. */
function redactArgument(arg: unknown): unknown {
  if (typeof arg === 'string') return withoutSecrets(arg);
  if (arg instanceof Error) return redactedError(arg);
  if (typeof arg !== 'object' || arg === null || Array.isArray(arg)) return arg;
  let copy: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(arg)) {
    let clean = value;
    if (typeof value === 'string') clean = withoutSecrets(value);
    else if (value instanceof Error) clean = redactedError(value);
    if (clean !== value) (copy ??= { ...(arg as Record<string, unknown>) })[key] = clean;
  }
  return copy ?? arg;
}

/**
 * The gateway's logger: the authorization header and cookies never written, and every log line's strings (its
 * message, its fields, an error's message and stack) cleared of secret query parameters, whoever logs them.
 */
export function gatewayLogger(level: LevelWithSilent | string): LoggerOptions {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: { req: loggedRequest },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map(redactArgument) as Parameters<typeof method>);
      },
    },
  };
}

/** A request slower than this gets its summary at info. */
export const SLOW_REQUEST_MS = 1_000;

/** Every request is told at debug; at info only what an operator looks at: errors and slow requests. */
export const summaryLevel = (statusCode: number, elapsedMs: number): 'info' | 'debug' =>
  statusCode >= 400 || elapsedMs >= SLOW_REQUEST_MS ? 'info' : 'debug';

/** Fastify's own request logging (every request twice at info) replaced by one summary per request. */
export const requestLogPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      request.log.debug({ req: request }, 'incoming request');
    });
    app.addHook('onResponse', async (request, reply) => {
      const responseTime = reply.elapsedTime;
      request.log[summaryLevel(reply.statusCode, responseTime)]({ req: request, res: { statusCode: reply.statusCode }, responseTime }, 'request completed');
    });
  },
  { name: 'request-log' },
);
