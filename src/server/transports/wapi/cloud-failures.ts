import type { FailureReason } from '../../../contract/messages.ts';
import { GraphApiError } from '../meta/graph-api.ts';

/*
 * Where the Cloud API's refusals are known from. A refused call answers `{error: {message, type, code,
 * error_subcode, error_data: {details}, fbtrace_id}}`; a send Meta took and could not deliver comes back later in a
 * `statuses[]` entry of status `failed`, with `errors: [{code, title, message, error_data: {details}}]` of the same
 * codes. So one table reads both.
 *
 * Documented (Cloud API "Error codes", "Throughput", "Messaging limits", "Pricing"):
 * - 0 (AuthException) and 190 (access token expired or invalidated): the business token is no longer taken;
 * - 3, 10, 200–299 and 131005: the app lacks a permission on the account;
 * - 4 (app call limit), 80007 (the WhatsApp Business Account's rate limit), 130429 (the number's throughput) and
 *   131056 (too many messages to one customer in a short time: the pair rate) are rate limits;
 * - 1, 2, 131000 ("something went wrong") and 131016 (service unavailable) are Meta's own failures, worth another try;
 * - 100, 131008 (a required parameter is missing), 131009 (a parameter's value is not valid), 132000 (the template's
 *   parameters do not match its variables), 132001 (no such template in that language), 132005 (the template's text
 *   too long once filled), 132007 (the template's words break a policy), 132012 (a parameter of the wrong format),
 *   132015 and 132016 (the template paused or disabled): the request is at fault;
 * - 131021 (the recipient is the sender) and 131030 (a number not in the test number's allowed list): no such contact;
 * - 131026: the message could not be delivered (the number is not on WhatsApp, its owner has not accepted the terms,
 *   or runs an old version): the interface's `waba_message_undeliverable`;
 * - 131031: the business account is locked; 368: the account is temporarily blocked for a policy violation;
 * - 131042: a problem with the business's payment method: it cannot start conversations or send templates;
 * - 131047: more than 24 hours since the customer last wrote (a "re-engagement message"): only a template reaches them;
 * - 131048: spam rate limit hit (too many of the number's messages were blocked or reported);
 * - 131049: Meta chose not to deliver a marketing template, to keep the customer's engagement healthy;
 * - 131050: the customer stopped marketing messages from the business;
 * - 130472: the customer's number is part of an experiment (a marketing template cannot open the conversation);
 * - 131051 (a kind of message not supported) and 131053 (Meta could not fetch or process the media a send names);
 * - 133010: the number is not registered with the Cloud API.
 *
 * Inferred (not given a code of its own in Meta's documentation): that a refusal for the number's daily limit of
 * conversations the business starts (its messaging limit, the tier) says "limit" and "conversation" or "messaging
 * limit" in its words: `message_limit_exceeded`.
 */

const TOKEN_CODES = new Set([0, 190]);
const PERMISSION_CODES = new Set([3, 10, 131005]);
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131056]);
const TEMPORARY_CODES = new Set([1, 2, 131000, 131016]);
const PARAMETER_CODES = new Set([100, 131008, 131009, 132000, 132001, 132005, 132007, 132012, 132015, 132016]);

/** Reasons by code, for the codes that say all there is to say. */
const REASONS: ReadonlyMap<number, FailureReason> = new Map<number, FailureReason>([
  [131047, 'over_24_hour_limit'],
  [131042, 'wapi_not_enough_money'],
  [130472, 'waba_rejected_by_experiment'],
  [131049, 'waba_limit_marketing_template_sending'],
  [131050, 'stop_receiving_marketing_messages'],
  [131031, 'waba_business_account_locked'],
  [368, 'is_spam'],
  [131048, 'is_spam'],
  [131026, 'waba_message_undeliverable'],
  [131021, 'bad_contact'],
  [131030, 'bad_contact'],
  [131051, 'bad_content'],
  [131053, 'can_not_get_content'],
  [133010, 'message_channel_unavailable'],
]);

/** When Meta throttles without saying for how long: a customer's pair rate passes within seconds, the others within a minute. */
const PAIR_RATE_WAIT_MS = 6_000;
const RATE_LIMIT_WAIT_MS = 60_000;

/** Meta no longer takes the business token: the channel is switched off, whichever call learned it. */
export const isTokenRefused = (err: unknown): boolean => err instanceof GraphApiError && TOKEN_CODES.has(err.code);

/** A rate limit: the call may work once the wait Meta asks for has passed. */
export const isRateLimited = (err: GraphApiError): boolean => err.status === 429 || RATE_LIMIT_CODES.has(err.code);

/** A refusal that may pass by itself (Meta's failure, a rate limit): tried again rather than reported. */
export const mayPass = (err: GraphApiError): boolean => isRateLimited(err) || err.status >= 500 || TEMPORARY_CODES.has(err.code) || err.transient;

/** How long to wait before trying again, for a refusal that may pass; null where the usual backoff will do. */
export function waitAsked(err: GraphApiError): number | null {
  if (isRateLimited(err)) return err.retryAfterMs ?? (err.code === 131056 ? PAIR_RATE_WAIT_MS : RATE_LIMIT_WAIT_MS);
  return err.retryAfterMs;
}

/** The reason for a refusal by its code and words, as a send's answer or a failed status gives them. */
export function reasonOf(code: number, message: string): FailureReason {
  if (TOKEN_CODES.has(code)) return 'session_revoked';
  const known = REASONS.get(code);
  if (known) return known;
  const said = message.toLowerCase();
  if (/messaging limit|conversation limit|limit.*conversations/.test(said)) return 'message_limit_exceeded';
  if (PERMISSION_CODES.has(code) || (code >= 200 && code <= 299)) return 'no_user_permissions';
  if (PARAMETER_CODES.has(code)) return 'bad_required_parameter';
  return 'unknown_error';
}

/** A refused send, as the interface's failure reasons name it; null where it may pass (tried again). */
export function failureOf(err: GraphApiError): FailureReason | null {
  if (mayPass(err)) return null;
  return reasonOf(err.code, err.message);
}

/**
 * A `failed` status's reason: its first error's code and words. A status that names no error is `unknown_error`;
 * one naming a refusal that passes by itself (Meta failed to deliver for now) still failed: Meta does not try again.
 */
export function statusFailureOf(errors: unknown): FailureReason {
  const first = Array.isArray(errors) ? (errors[0] as unknown) : undefined;
  if (typeof first !== 'object' || first === null) return 'unknown_error';
  const { code, title, message } = first as { code?: unknown; title?: unknown; message?: unknown };
  if (typeof code !== 'number') return 'unknown_error';
  if (RATE_LIMIT_CODES.has(code)) return 'to_many_requests';
  if (TEMPORARY_CODES.has(code)) return 'network_error';
  return reasonOf(code, [title, message].filter((w) => typeof w === 'string').join(' '));
}
