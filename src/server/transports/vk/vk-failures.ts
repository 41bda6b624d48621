import type { FailureReason } from '../../../contract/messages.ts';
import { VkApiError } from './vk-api.ts';

/**
 * VK's refusals as the gateway reads them (dev.vk.com "Коды ошибок", "Ошибки": the codes and their documented
 * meanings), and what each becomes for a send:
 *
 * - 5 (user authorization failed), 27 (group authorization failed: the community's key is invalid or withdrawn),
 *   28 (application authorization failed): the channel's key is no longer taken: the channel is switched off;
 * - 6 (too many requests per second), 10 (internal server error), 29 (a method's rate limit): tried again later;
 * - 9 (flood control: too many similar messages): tried again later, after a longer wait (how long VK's flood
 *   control holds is not documented: a minute is chosen);
 * - 901 (no permission to write to the user: they did not allow messages from the community, or forbade them) and
 *   902 (the user's privacy settings): the customer does not take the community's messages, `chat_is_blocked`;
 * - 914 (message too long): `text_length_is_too_much`;
 * - 7 (permission denied), 15 (access denied), 917 (no access to the conversation): the community's key lacks the
 *   right, or the community may not write there, `no_user_permissions`;
 * - 936 (contact not found) and 100 with a peer (invalid parameters naming the recipient): `bad_contact`;
 * - 921 (cannot forward these messages), 913 (too many forwarded), 911 (keyboard format), 100: `bad_required_parameter`;
 * - anything else: `unknown_error`, VK's words kept in the log.
 */

export type VkFailure = { kind: 'retry'; waitMs: number } | { kind: 'revoked' } | { kind: 'failed'; reason: FailureReason };

/** How long to wait after a refusal that may pass. */
const PER_SECOND_WAIT_MS = 1000;
const FLOOD_WAIT_MS = 60_000;

/** The codes by which VK says the channel's key is not taken any more. */
export const REVOKING_CODES: ReadonlySet<number> = new Set([5, 27, 28]);

const table: ReadonlyMap<number, VkFailure> = new Map<number, VkFailure>([
  [6, { kind: 'retry', waitMs: PER_SECOND_WAIT_MS }],
  [10, { kind: 'retry', waitMs: PER_SECOND_WAIT_MS }],
  [29, { kind: 'retry', waitMs: FLOOD_WAIT_MS }],
  [9, { kind: 'retry', waitMs: FLOOD_WAIT_MS }],
  [5, { kind: 'revoked' }],
  [27, { kind: 'revoked' }],
  [28, { kind: 'revoked' }],
  [901, { kind: 'failed', reason: 'chat_is_blocked' }],
  [902, { kind: 'failed', reason: 'chat_is_blocked' }],
  [914, { kind: 'failed', reason: 'text_length_is_too_much' }],
  [7, { kind: 'failed', reason: 'no_user_permissions' }],
  [15, { kind: 'failed', reason: 'no_user_permissions' }],
  [917, { kind: 'failed', reason: 'no_user_permissions' }],
  [936, { kind: 'failed', reason: 'bad_contact' }],
  [911, { kind: 'failed', reason: 'bad_required_parameter' }],
  [913, { kind: 'failed', reason: 'bad_required_parameter' }],
  [921, { kind: 'failed', reason: 'bad_required_parameter' }],
]);

/** What a refusal of VK's means for a send. */
export function failureOf(err: VkApiError): VkFailure {
  const known = table.get(err.code);
  if (known) return known;
  if (err.code === 100) return { kind: 'failed', reason: /peer|user_id/i.test(err.message) ? 'bad_contact' : 'bad_required_parameter' };
  return { kind: 'failed', reason: 'unknown_error' };
}

/** Whether VK refused the channel's key itself (whichever call learned it). */
export const isKeyRefused = (err: unknown): boolean => err instanceof VkApiError && REVOKING_CODES.has(err.code);
