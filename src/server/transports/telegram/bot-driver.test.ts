import { describe, expect, it } from 'vitest';
import { BotApiError } from './bot-api.ts';
import { failureOf } from './bot-driver.ts';

describe('refused sends, as the Bot API words them', () => {
  const refused = (code: number, description: string) => failureOf(new BotApiError(code, description, null));

  it('name the interface’s failure reason', () => {
    expect(refused(403, 'Forbidden: bot was blocked by the user')).toBe('chat_is_blocked');
    expect(refused(403, "Forbidden: bot can't initiate conversation with a user")).toBe('messages_not_text_first_from_telegram_bot');
    expect(refused(403, 'Forbidden: user is deactivated')).toBe('input_user_deactivated');
    expect(refused(403, 'Forbidden: bot was kicked from the supergroup chat')).toBe('channel_private');
    expect(refused(400, 'Bad Request: chat not found')).toBe('bad_contact');
    expect(refused(400, 'Bad Request: message is too long')).toBe('text_length_is_too_much');
    expect(refused(400, 'Bad Request: message caption is too long')).toBe('text_length_is_too_much');
    expect(refused(400, 'Bad Request: message text is empty')).toBe('message_empty');
    expect(refused(400, 'Bad Request: failed to get HTTP URL content')).toBe('can_not_get_content');
    expect(refused(400, 'Bad Request: something new')).toBe('bad_required_parameter');
    expect(refused(401, 'Unauthorized')).toBe('session_revoked');
    // Not a revoked token: an address that answers for something else.
    expect(refused(404, 'Not Found')).toBe('unknown_error');
  });

  it('leave to a later try what may work then: too many requests, Telegram’s own failures', () => {
    expect(refused(429, 'Too Many Requests: retry after 5')).toBeNull();
    expect(refused(502, 'Bad Gateway')).toBeNull();
  });
});
