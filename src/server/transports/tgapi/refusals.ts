import type { FailureReason } from '../../../contract/messages.ts';

/** The text of Telegram's refusal (`FLOOD_WAIT_30`, `USER_DEACTIVATED`…), or null for anything else. */
export function errorText(err: unknown): string | null {
  if (err && typeof err === 'object' && 'text' in err && 'code' in err && typeof err.text === 'string' && typeof err.code === 'number') return err.text;
  return null;
}

/** The seconds Telegram asked to wait (`FLOOD_WAIT_X`, `SLOWMODE_WAIT_X`, `FLOOD_PREMIUM_WAIT_X`), or null. */
export function floodWaitSeconds(err: unknown): number | null {
  const match = /^(?:FLOOD_WAIT|SLOWMODE_WAIT|FLOOD_PREMIUM_WAIT)_(\d+)$/.exec(errorText(err) ?? '');
  if (match) return Number(match[1]);
  const seconds = err && typeof err === 'object' && 'seconds' in err && typeof err.seconds === 'number' ? err.seconds : null;
  return errorText(err)?.startsWith('FLOOD_WAIT') ? seconds : null;
}

/** Telegram ended the session: the phone terminated it, or the account is gone. The channel is logged out. */
export const SESSION_ENDED: ReadonlySet<string> = new Set(['AUTH_KEY_UNREGISTERED', 'SESSION_REVOKED', 'SESSION_EXPIRED', 'USER_DEACTIVATED', 'USER_DEACTIVATED_BAN']);

/** Telegram's refusals of a send, as the interface names them; anything else is `unknown_error`. */
const refusals: Readonly<Record<string, FailureReason>> = {
  PRIVACY_PREMIUM_REQUIRED: 'privacy_premium_required',
  ALLOW_PAYMENT_REQUIRED: 'allow_payment_required',
  INPUT_USER_DEACTIVATED: 'input_user_deactivated',
  USER_IS_BLOCKED: 'input_user_deactivated',
  YOU_BLOCKED_USER: 'chat_is_blocked',
  VOICE_MESSAGES_FORBIDDEN: 'voice_messages_forbidden',
  CHANNEL_PRIVATE: 'channel_private',
  CHAT_WRITE_FORBIDDEN: 'channel_private',
  CHAT_ADMIN_REQUIRED: 'tgapi_megagroups_not_enabled',
  CHAT_RESTRICTED: 'tgapi_megagroups_not_enabled',
  CHAT_SEND_PLAIN_FORBIDDEN: 'tgapi_megagroups_not_enabled',
  CHAT_SEND_MEDIA_FORBIDDEN: 'tgapi_megagroups_not_enabled',
  PEER_ID_INVALID: 'bad_contact',
  USER_ID_INVALID: 'bad_contact',
  USERNAME_NOT_OCCUPIED: 'contact_can_not_create',
  USERNAME_INVALID: 'contact_can_not_create',
  PHONE_NOT_OCCUPIED: 'contact_can_not_create',
  MESSAGE_TOO_LONG: 'text_length_is_too_much',
  MESSAGE_EMPTY: 'message_empty',
  PEER_FLOOD: 'is_spam',
  FILE_PART_MISSING: 'file_part_missing',
  FILE_PARTS_INVALID: 'file_part_missing',
  MEDIA_EMPTY: 'bad_content',
  MEDIA_INVALID: 'bad_content',
  PHOTO_INVALID_DIMENSIONS: 'bad_content',
  PHOTO_EXT_INVALID: 'bad_content',
};

/** The interface's reason for a refusal Telegram gave to a send; null when it is not a refusal (a network failure). */
export function refusalOf(err: unknown): FailureReason | null {
  const text = errorText(err);
  if (text === null) return null;
  if (SESSION_ENDED.has(text)) return 'session_revoked';
  if (/^FILE_PART_\d+_MISSING$/.test(text)) return 'file_part_missing';
  return refusals[text] ?? 'unknown_error';
}
