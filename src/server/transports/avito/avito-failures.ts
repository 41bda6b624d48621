import type { FailureReason } from '../../../contract/messages.ts';
import { AvitoApiError } from './avito-api.ts';

/*
 * Where Avito's refusals are known from. Avito documents its errors by HTTP status only, so each mapping below says
 * whether it is documented or inferred.
 *
 * Documented (developers.avito.ru, the OpenAPI documents of "Мессенджер", "Авторизация", "Информация о пользователе"):
 * - every refusal is `{error: {code, message}}` with the status: 400 bad request or validation (`fields`), 401
 *   unauthorized, 402 payment required, 403 forbidden, 404 not found, 500 and 503 Avito's own;
 * - "after the access token expires, every request with it answers 403", and it expires 24 hours after it was given;
 * - `POST /messenger/v1/.../messages` takes `message.text` of at most 1000 characters (`maxLength: 1000`);
 * - the Messenger API is available only on some of Avito's subscription levels ("Расширенный", "Максимальный");
 * - every answer may carry `X-RateLimit-Limit` (requests a minute) and `X-RateLimit-Remaining`; no figure is published.
 *
 * Inferred (not in Avito's documentation; the safest reading of the status):
 * - 429 with `Retry-After` as the rate limit (a minute, Avito's window, when it does not say how long);
 * - 403 with a token Avito still takes (`GET /core/v1/accounts/self` answers) as the chat being closed to the account:
 *   the customer blocked it, or the chat was closed;
 * - 404 as a chat Avito does not know for the account: chats are made only by customers writing, so it is said as the
 *   sandbox says a chat nobody wrote from (`messages_not_text_first`);
 * - 402 as the account's subscription not covering the Messenger API (any longer);
 * - a 400 whose words name the text's length as a text over the limit (the limit itself is checked before sending).
 */

/** A 429 without a Retry-After: Avito counts per minute (X-RateLimit-Limit). */
const RATE_LIMIT_WAIT_MS = 60_000;

/** How long Avito asked to wait, for a refusal that may pass; null where a send should not wait more than usual. */
export function waitAsked(err: AvitoApiError): number | null {
  if (err.status === 429) return err.retryAfterMs ?? RATE_LIMIT_WAIT_MS;
  return err.retryAfterMs;
}

/** Whether the status may be a refusal of the token rather than of the call: 401, and 403 (an expired token, documented). */
export const mayRefuseToken = (err: unknown): err is AvitoApiError => err instanceof AvitoApiError && (err.status === 401 || err.status === 403);

/**
 * A refused send, by the interface's failure reasons, once the token is known to be good (a refusal of the token
 * itself is renewed and tried again before this is asked); null where the send may work later.
 */
export function failureOf(err: AvitoApiError): FailureReason | null {
  if (err.status === 408 || err.status === 429 || err.status >= 500) return null;
  // Documented statuses, inferred meanings (see above).
  if (err.status === 401) return 'session_revoked';
  if (err.status === 402) return 'message_channel_unavailable';
  if (err.status === 403) return 'chat_is_blocked';
  if (err.status === 404) return 'messages_not_text_first';
  if (err.status === 400 || err.status === 422) {
    if (/1000|too long|length|длин/i.test(err.message)) return 'text_length_is_too_much';
    return 'bad_required_parameter';
  }
  return 'unknown_error';
}

/** Whether an upload's refusal is of the file itself (its format, its size), which trying again will not change. */
export const refusesFile = (err: unknown): boolean =>
  err instanceof AvitoApiError && err.status >= 400 && err.status < 500 && ![401, 402, 403, 404, 408, 429].includes(err.status);
