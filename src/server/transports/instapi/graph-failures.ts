import type { FailureReason } from '../../../contract/messages.ts';
import { GraphApiError } from '../meta/graph-api.ts';

/*
 * Where Meta's refusals are known from. Meta documents the Graph API's error codes well and the Instagram send's
 * subcodes little, so each mapping below says which it is:
 *
 * Documented (Graph API "Handling errors", Messenger Platform "Error codes" and "Rate limiting", Instagram
 * messaging's "Send a message"):
 * - every error is `{error: {message, type, code, error_subcode, is_transient, fbtrace_id}}`;
 * - 190 (and 102) is an access token expired, revoked or otherwise invalid (subcodes 458 app removed, 460 password
 *   changed, 463 expired, 467 invalid);
 * - 4, 17, 32, 613 and the Business Use Case limits 80002 (Instagram) and 80006 (Messenger) are rate limits, and
 *   X-Business-Use-Case-Usage says how long until calls are taken again;
 * - 1, 2 and 1200 ("Temporary send message failure") are Meta's own failures, worth another try, as is any error
 *   Meta marks `is_transient`;
 * - 551 "This person isn't available right now": the customer blocked the account or cannot be written to;
 * - 100 with subcode 2018001 "No matching user found";
 * - 10 with subcode 2018278 "This message is sent outside of allowed window" (Messenger's 24-hour window);
 * - 368: the action was deemed abusive (the account is temporarily blocked from sending);
 * - 10 and 200–299 are permission errors; 100 an invalid parameter;
 * - a text must be at most 1000 bytes of UTF-8 (checked before a send; see MAX_TEXT_BYTES).
 *
 * Assumed (seen in Meta's answers as public integrations record them, or inferred; not in Meta's documentation):
 * - 10 with subcode 2534022 as Instagram's "outside of allowed window";
 * - 100 with subcode 2534014 as Instagram's "user cannot be found" (deleted, or blocked the account);
 * - the wording of a refused attachment: "fetch", "download" or "url" where Meta could not get the file at its
 *   address, "attachment", "upload", "media", "size", "format" or "type" where it refused the file itself;
 * - "length" or "too long" in the message of a text over the limit.
 */

const TOKEN_CODES = new Set([190, 102]);
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80002, 80006]);
const TEMPORARY_CODES = new Set([1, 2, 1200]);
/** Documented (Messenger) and assumed (Instagram) subcodes of a send outside the 24-hour window. */
const OUTSIDE_WINDOW = new Set([2018278, 2534022]);
/** Documented (Messenger) and assumed (Instagram) subcodes of a recipient Meta does not find. */
const NO_SUCH_USER = new Set([2018001, 2534014]);

/** When Meta throttles without saying for how long: its windows are an hour long, so a minute at least. */
const RATE_LIMIT_WAIT_MS = 60_000;

/** Meta no longer takes the token: the channel is switched off, whichever call learned it. (Documented.) */
export const isTokenRefused = (err: unknown): boolean => err instanceof GraphApiError && TOKEN_CODES.has(err.code);

/** A rate limit: the call may work once the wait Meta asks for has passed. (Documented.) */
export const isRateLimited = (err: GraphApiError): boolean => err.status === 429 || RATE_LIMIT_CODES.has(err.code);

/** A refusal that may pass by itself (Meta's failure, a rate limit): tried again rather than reported. (Documented.) */
export const mayPass = (err: GraphApiError): boolean => isRateLimited(err) || err.status >= 500 || TEMPORARY_CODES.has(err.code) || err.transient;

/** How long to wait before trying again, for a refusal that may pass; null where the usual backoff will do. */
export function waitAsked(err: GraphApiError): number | null {
  if (isRateLimited(err)) return err.retryAfterMs ?? RATE_LIMIT_WAIT_MS;
  return err.retryAfterMs;
}

/** Whether the refusal is about the quote (`reply_to`): the message is then sent without it. (Assumed wording.) */
export const isQuoteRefused = (err: GraphApiError): boolean => err.code === 100 && /reply_to|reply to/i.test(err.message);

/**
 * A refused send, as the interface's failure reasons name it; null where it may pass (tried again). Meta's 24-hour
 * window is the one Instagram keeps after a customer's last message: a send after it is a send the business
 * writes first, which Instagram does not allow (`messages_not_text_first`, as for a customer who never wrote).
 */
export function failureOf(err: GraphApiError): FailureReason | null {
  if (mayPass(err)) return null;
  if (isTokenRefused(err)) return 'session_revoked';
  const said = err.message.toLowerCase();
  if ((err.subcode !== null && OUTSIDE_WINDOW.has(err.subcode)) || said.includes('outside of allowed window')) return 'messages_not_text_first';
  if (err.code === 551) return 'chat_is_blocked';
  if ((err.subcode !== null && NO_SUCH_USER.has(err.subcode)) || said.includes('no matching user')) return 'bad_contact';
  if (err.code === 368) return 'is_spam';
  if (/\blength\b|too long/.test(said) && said.includes('text')) return 'text_length_is_too_much';
  if (/fetch|download|\burl\b/.test(said)) return 'can_not_get_content';
  if (/attachment|upload|media|size|format|type/.test(said)) return 'bad_content';
  if (err.code === 10 || (err.code >= 200 && err.code <= 299)) return 'no_user_permissions';
  if (err.code === 100) return 'bad_required_parameter';
  return 'unknown_error';
}
