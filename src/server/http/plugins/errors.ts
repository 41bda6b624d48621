import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorStatus, type ErrorBody, type ErrorCode, type FieldError } from '../../../contract/errors.ts';
import { AppError } from '../../core/errors.ts';
import { credentialRefusals } from '../../../contract/credential-fields.ts';
import { HTTP_URL_PATTERN } from '../../../contract/messages.ts';

interface AjvIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** Turns schema failures into `data.fields`: one entry per field, in the request's own words. */
export function fieldErrors(issues: AjvIssue[], context: string | undefined): FieldError[] {
  const prefix = context && context !== 'body' ? `${context}.` : '';
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  for (const issue of issues) {
    // `if`/`then` failures only repeat the field errors they wrap.
    if (issue.keyword === 'if') continue;
    let path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    let message = issue.message ?? 'is invalid';
    // Missing and unknown fields are said in the contract's words, which the connect frame says in its language.
    if (issue.keyword === 'required') {
      path = [path, String(issue.params.missingProperty)].filter(Boolean).join('.');
      message = credentialRefusals.required;
    } else if (issue.keyword === 'additionalProperties') {
      path = [path, String(issue.params.additionalProperty)].filter(Boolean).join('.');
      message = credentialRefusals.notAllowed;
    } else if (issue.keyword === 'pattern' && issue.params.pattern === HTTP_URL_PATTERN) {
      message = 'must be an http or https URL';
    } else if (issue.keyword === 'enum') {
      message = `must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}`;
    }
    const field = `${prefix}${path}` || context || 'body';
    const key = `${field}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      fields.push({ field, message });
    }
  }
  return fields;
}

function send(reply: FastifyReply, code: ErrorCode, description: string, data?: Record<string, unknown>) {
  const body: ErrorBody = data ? { error: code, description, data } : { error: code, description };
  // A route may have described the body it meant to send (a file, a part of one) before failing: the error is
  // neither, and is never kept by a cache.
  for (const header of ['content-range', 'accept-ranges', 'content-disposition']) reply.removeHeader(header);
  reply.header('cache-control', 'no-store');
  return reply.code(errorStatus[code]).type('application/json; charset=utf-8').send(body);
}

/** Fastify's own client errors (bad JSON, wrong content type, too large) in our vocabulary. */
function frameworkClientError(error: FastifyError): [ErrorCode, string] | null {
  switch (error.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ['VALIDATION_ERROR', 'Request body is not valid JSON'];
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ['PAYLOAD_TOO_LARGE', 'Request body is too large'];
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return ['UNSUPPORTED_MEDIA_TYPE', 'Content type is not supported; send application/json'];
    default:
      return null;
  }
}

/** The router's own refusals, before any route runs: a URL it cannot decode, a path parameter over its length. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, 'URI_TOO_LONG', 'A path parameter is too long');
  if (error.code === 'FST_ERR_BAD_URL') return send(reply, 'VALIDATION_ERROR', 'The URL is not valid');
  return send(reply, 'VALIDATION_ERROR', 'The request could not be routed');
}

const CLIENT_ERRORS: Record<string, ErrorCode> = { HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE', ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT' };
const CLIENT_ERROR_TEXT: Partial<Record<ErrorCode, string>> = {
  HEADERS_TOO_LARGE: 'The request line and headers are too large',
  REQUEST_TIMEOUT: 'The request took too long to arrive',
};

/**
 * What Node's HTTP parser refuses (malformed requests, headers over the size limit, a request that never finished)
 * never reaches Fastify: the answer is written on the socket, in the same shape as every other error.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A connection reset leaves nothing to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const code = CLIENT_ERRORS[err.code ?? ''] ?? 'VALIDATION_ERROR';
  const body = JSON.stringify({ error: code, description: CLIENT_ERROR_TEXT[code] ?? 'The request is malformed' } satisfies ErrorBody);
  const status = errorStatus[code];
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

const ABORT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'EPIPE']);

function clientAborted(error: FastifyError, request: FastifyRequest): boolean {
  return ABORT_CODES.has(error.code) || (request.raw.destroyed && !request.raw.complete);
}

/** What a client is told to wait before trying again while the database cannot be reached, in seconds. */
const DATABASE_RETRY_AFTER_S = 5;

export interface ErrorsOptions {
  /** Whether an error says the database cannot be reached: answered 503 SERVICE_UNAVAILABLE with Retry-After. */
  databaseUnavailable?(err: unknown): boolean;
}

/**
 * The one place errors become responses: AppError by its code's status, schema failures as
 * VALIDATION_ERROR with each field, and everything else as a 500 that names only the request id.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance, options: ErrorsOptions) => {
    app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (error instanceof AppError) {
        // A refusal for now says when to come back, in the body and as HTTP says it.
        if (typeof error.data?.retry_after === 'number') reply.header('retry-after', String(error.data.retry_after));
        return send(reply, error.code, error.message, error.data);
      }
      // A client that went away mid-request (closed the tab, lost the network) is not the gateway failing, nor the
      // database: its connection errors look alike, so this is told apart first.
      if (clientAborted(error, request)) {
        request.log.debug({ err: error }, 'client aborted the request');
        return send(reply, 'VALIDATION_ERROR', 'The request was aborted');
      }
      if (options.databaseUnavailable?.(error)) {
        reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
        return send(reply, 'SERVICE_UNAVAILABLE', 'The database cannot be reached at the moment; try again shortly');
      }
      if (error.validation) {
        const fields = fieldErrors(error.validation as AjvIssue[], error.validationContext);
        return send(reply, 'VALIDATION_ERROR', 'Request validation failed', { fields });
      }
      const known = frameworkClientError(error);
      if (known) return send(reply, known[0], known[1]);
      request.log.error({ err: error }, 'unhandled error');
      return send(reply, 'INTERNAL_ERROR', 'Internal server error', { request_id: request.id });
    });

    app.setNotFoundHandler((request, reply) =>
      send(reply, 'NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`),
    );
  },
  { name: 'errors' },
);
