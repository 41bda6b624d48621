import { AppError } from '../../core/errors.ts';
import { GraphApiError, GraphApiUnreachable, graphApi } from './graph-api.ts';
import { loginReturnAddress, type MetaLoginTransport } from './login-dialog.ts';

/** A Meta access token goes in a header: printable characters only. */
export const ACCESS_TOKEN = /^[\x21-\x7e]{20,2048}$/;

/** Meta out of reach, or failing: nothing changed (a 503 saying why; the owner may come back again). */
export function metaUnavailable(err: unknown, what: string): AppError {
  if (err instanceof GraphApiUnreachable) return new AppError('SERVICE_UNAVAILABLE', 'Meta could not be reached; try again');
  return new AppError('SERVICE_UNAVAILABLE', `Meta refused ${what}: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * The code Meta's login dialog gave back, exchanged for the token it is worth (documented: `GET /oauth/access_token`
 * with the app's id and secret, the same `redirect_uri` as the dialog's, and the code; Meta takes a code once): a
 * business integration token for Embedded Signup, a short-lived user token for Facebook Login. `refused`: Meta did
 * not take the code (used, too old, another address's). Throws where Meta could not be asked.
 */
export async function exchangeLoginCode(
  app: { graphUrl: string; appId: string; appSecret: string; publicUrl: string; timeoutMs?: number },
  transport: MetaLoginTransport,
  code: string,
): Promise<{ token: string } | { refused: true }> {
  try {
    const answer = await graphApi(app.graphUrl, null, app.appSecret, app.timeoutMs).call<{ access_token?: unknown }>('GET', '/oauth/access_token', {
      query: { client_id: app.appId, client_secret: app.appSecret, redirect_uri: loginReturnAddress(app.publicUrl, transport), code },
    });
    if (typeof answer.access_token !== 'string' || !ACCESS_TOKEN.test(answer.access_token)) return { refused: true };
    return { token: answer.access_token };
  } catch (err) {
    if (err instanceof GraphApiError && err.status < 500 && !err.transient) return { refused: true };
    throw metaUnavailable(err, 'the code');
  }
}
