/**
 * The demo CRM's server talks to the gateway as any CRM's server would: over HTTP, with its account's client
 * token, through the public `/v2` interface. Nothing here reaches inside the gateway.
 */
export interface GatewayClient {
  call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

export class GatewayCallError extends Error {
  readonly status: number;
  constructor(status: number, body: string) {
    super(`the gateway answered ${status}: ${body.slice(0, 300)}`);
    this.name = 'GatewayCallError';
    this.status = status;
  }
}

/** `baseUrl` is where the gateway answers (`http://127.0.0.1:8080`), `token` the account's client token. */
export function gatewayClient(baseUrl: string, token: string): GatewayClient {
  return {
    async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${baseUrl}/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      if (!res.ok) throw new GatewayCallError(res.status, text);
      // Every answer of the interface is the envelope `{data, meta}`.
      return (JSON.parse(text) as { data: T }).data;
    },
  };
}
