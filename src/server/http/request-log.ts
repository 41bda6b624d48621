/**
 * A request as the log tells it: Fastify's own fields, with the secrets some callbacks carry in their address taken
 * out. Avito signs nothing it posts and takes no secret of its own, so the address it posts to holds the channel's
 * (`/hooks/avito/<channel id>?secret=…`): logged as it came, it would let anyone reading the logs post as Avito.
 */
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

/** The address with every `secret` query parameter's value replaced. */
export const withoutSecrets = (url: string): string => url.replace(/([?&]secret=)[^&#]*/gi, '$1[redacted]');
