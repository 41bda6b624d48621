import type { ChatType } from '../../../contract/channels.ts';
import type { FailureReason } from '../../../contract/messages.ts';
import { AppError } from '../../core/errors.ts';
import { MaxApiError, MaxApiUnreachable } from './bot-api.ts';

/*
 * Where MAX's refusals are known from. MAX documents few of its error keys, so each mapping below says which it is:
 *
 * Confirmed (MAX's Bot API schema, the official clients' schema.yaml and their stub answers, and dev.max.ru):
 * - every error is `{code, message}` with an HTTP status: 400 invalid request, 401 authentication, 403 no
 *   permission, 404 not found, 405 method not allowed, 429 too many requests, 500 and 503 MAX's own;
 * - `verify.token` / "Invalid access_token" with 401: the token is not (or no longer) taken;
 * - `attachment.not.ready` with 400: an uploaded file is still processed, and the same send works a moment later;
 * - 403 on `GET /messages`: "the user suspended the bot or it doesn't have access to the chat"; 403 on
 *   `DELETE /messages`: the bot has no permission to delete there (it may delete in a group only with that right);
 * - `NewMessageBody.text` has `maxLength: 4000` (checked before a send, see MAX_TEXT_CHARS);
 * - a `SimpleQueryResult` of `{success: false, message}` with 200 is a refusal too.
 *
 * Assumed (seen in MAX's answers as public integrations record them, or inferred; not in MAX's documentation):
 * - `chat.denied` with "error.dialog.suspended" as the 403 of a send to a customer who stopped or blocked the bot;
 * - `chat.not.found` / `not.found` (404, or 400 with a "not found" message) for a user the bot has no dialog with;
 * - `too.many.requests` as the key of a 429;
 * - `proto.payload` with "Field 'text' size (…) must be at most 4000" as the wording of a text over the limit;
 * - "photo", "attachment", "file" or `….not.supported` in the key or message of a refused file.
 */

/** MAX is still processing an uploaded file: the same send works a moment later. (Confirmed: schema and stubs.) */
export const isNotReady = (err: unknown): boolean => err instanceof MaxApiError && err.code === 'attachment.not.ready';

/** MAX no longer takes the bot's token (401, or `verify.token`): the channel is switched off, whichever call learned it. (Confirmed.) */
export const isTokenRefused = (err: unknown): boolean => err instanceof MaxApiError && (err.status === 401 || err.code === 'verify.token');

/** A 429 without a Retry-After: MAX counts per second (30 calls a second per bot, dev.max.ru). */
const RATE_LIMIT_WAIT_MS = 1000;

/** How long MAX asked to wait, for a refusal that may pass; null where a send should not wait more than usual. */
export function waitAsked(err: MaxApiError): number | null {
  if (err.status === 429 || err.code === 'too.many.requests') return err.retryAfterMs ?? RATE_LIMIT_WAIT_MS;
  return err.retryAfterMs;
}

/**
 * A refused send, as the interface's failure reasons name it (MAX's answer is `{code, message}` with an HTTP
 * status); null where the send may work later. `chatType` tells a customer's dialog (`max`) from a group.
 */
export function failureOf(err: MaxApiError, chatType: ChatType): FailureReason | null {
  const said = `${err.code} ${err.message}`.toLowerCase();
  const group = chatType === 'maxgroup';
  // Confirmed statuses; `too.many.requests` assumed.
  if (err.status === 429 || err.status >= 500 || err.code === 'too.many.requests' || isNotReady(err)) return null;
  // Confirmed.
  if (err.status === 401 || err.code === 'verify.token') return 'session_revoked';
  if (err.status === 403) {
    // Confirmed that a 403 is "no permission"; that in a dialog it is the customer's stop or block is assumed
    // (`chat.denied` with `error.dialog.suspended`). In a group: the bot was removed or may not write.
    if (!group) return 'chat_is_blocked';
    return 'channel_private';
  }
  // Assumed: no dialog with this user (bots cannot write first, docs/decisions.md "The sandbox"), or a group the bot is not in.
  if (err.status === 404 || said.includes('not.found')) return group ? 'channel_private' : 'contact_can_not_create';
  // Assumed wording; a text over MAX's confirmed 4000 is refused before the send (MAX_TEXT_CHARS).
  if (/field 'text' size|text.*(too long|must be at most)/.test(said)) return 'text_length_is_too_much';
  // Assumed wordings of a refused file.
  if (said.includes('attachment') || said.includes('photo') || said.includes('not.supported') || said.includes('file')) return 'bad_content';
  // Confirmed: 400 is an invalid request.
  if (err.status === 400) return 'bad_required_parameter';
  return 'unknown_error';
}

/** What a refused edit or delete tells the caller. */
export function changeRefused(err: unknown, what: 'edited' | 'deleted'): AppError {
  if (err instanceof MaxApiUnreachable) return new AppError('SERVICE_UNAVAILABLE', 'MAX could not be reached; try again');
  if (!(err instanceof MaxApiError)) return new AppError('SERVICE_UNAVAILABLE', `MAX could not be reached; try again (${err instanceof Error ? err.message : String(err)})`);
  if (err.status === 429 || err.status >= 500) return new AppError('SERVICE_UNAVAILABLE', `MAX is busy (${err.status}); try again`);
  if (err.status === 401 || err.code === 'verify.token') return new AppError('CHANNEL_WRONG_STATUS', 'MAX no longer takes the channel’s bot token; reconnect it');
  // Assumed keys; the 404 is confirmed for a message the bot cannot see.
  if (err.status === 404 || err.code.includes('not.found')) return new AppError('MESSAGE_NOT_FOUND', `MAX no longer has this message (${err.message})`);
  // Confirmed: 403 is a missing permission (in a group, the bot's right to edit or delete there), not the edit window,
  // which the gateway checks itself before asking MAX.
  if (err.status === 403) return new AppError('FORBIDDEN', `MAX does not let the bot ${what === 'edited' ? 'edit' : 'delete'} this message; in a group the bot needs that right (${err.message})`);
  return new AppError('SERVICE_UNAVAILABLE', `MAX refused: ${err.message}`);
}
