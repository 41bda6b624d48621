import { describe, expect, it } from 'vitest';
import { floodWaitSeconds, refusalOf } from './refusals.ts';

/** Telegram's refusal as mtcute throws it (FLOOD_WAIT_30 becomes the text FLOOD_WAIT_%d with `seconds`). */
const rpc = (text: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(text), { code: 400, text, ...extra });

describe('Telegram’s refusals of a personal account’s sends', () => {
  it('read flood waits in the library’s shape and in the wire’s', () => {
    expect(floodWaitSeconds(rpc('FLOOD_WAIT_%d', { seconds: 30 }))).toBe(30);
    expect(floodWaitSeconds(rpc('FLOOD_WAIT_7'))).toBe(7);
    expect(floodWaitSeconds(rpc('SLOWMODE_WAIT_12'))).toBe(12);
    expect(floodWaitSeconds(rpc('PEER_FLOOD'))).toBeNull();
    expect(floodWaitSeconds(new Error('socket hang up'))).toBeNull();
  });

  it('map to the interface’s reasons, and a network failure to none', () => {
    expect(refusalOf(rpc('PRIVACY_PREMIUM_REQUIRED'))).toBe('privacy_premium_required');
    expect(refusalOf(rpc('ALLOW_PAYMENT_REQUIRED'))).toBe('allow_payment_required');
    expect(refusalOf(rpc('INPUT_USER_DEACTIVATED'))).toBe('input_user_deactivated');
    expect(refusalOf(rpc('VOICE_MESSAGES_FORBIDDEN'))).toBe('voice_messages_forbidden');
    expect(refusalOf(rpc('CHANNEL_PRIVATE'))).toBe('channel_private');
    expect(refusalOf(rpc('CHAT_SEND_PLAIN_FORBIDDEN'))).toBe('tgapi_megagroups_not_enabled');
    expect(refusalOf(rpc('AUTH_KEY_UNREGISTERED'))).toBe('session_revoked');
    expect(refusalOf(rpc('FILE_PART_3_MISSING'))).toBe('file_part_missing');
    expect(refusalOf(rpc('SOMETHING_NEW'))).toBe('unknown_error');
    expect(refusalOf(new Error('socket hang up'))).toBeNull();
  });
});
