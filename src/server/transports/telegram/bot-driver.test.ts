import { describe, expect, it } from 'vitest';
import { BotApiError } from './bot-api.ts';
import { failureOf, telegramMessageId } from './bot-driver.ts';

describe('refused sends, as the Bot API words them', () => {
  const refused = (code: number, description: string) => failureOf(new BotApiError(code, description, null));

  it('name the interface’s failure reason', () => {
    const cases: [number, string, string][] = [
      [403, 'Forbidden: bot was blocked by the user', 'chat_is_blocked'],
      [403, "Forbidden: bot can't initiate conversation with a user", 'messages_not_text_first_from_telegram_bot'],
      [403, 'Forbidden: user is deactivated', 'input_user_deactivated'],
      [403, 'Forbidden: bot was kicked from the supergroup chat', 'channel_private'],
      [400, 'Bad Request: chat not found', 'bad_contact'],
      [400, 'Bad Request: message is too long', 'text_length_is_too_much'],
      [400, 'Bad Request: message caption is too long', 'text_length_is_too_much'],
      [400, 'Bad Request: message text is empty', 'message_empty'],
      [400, 'Bad Request: failed to get HTTP URL content', 'can_not_get_content'],
      [400, 'Bad Request: something new', 'bad_required_parameter'],
      [401, 'Unauthorized', 'session_revoked'],
      // Not a revoked token: an address that answers for something else.
      [404, 'Not Found', 'unknown_error'],
    ];
    for (const [code, description, reason] of cases) expect(refused(code, description), description).toBe(reason);
  });

  it('leave to a later try what may work then: too many requests, Telegram’s own failures', () => {
    expect(refused(429, 'Too Many Requests: retry after 5')).toBeNull();
    expect(refused(502, 'Bad Gateway')).toBeNull();
  });
});

describe('Telegram message numbers', () => {
  it('are the same for a file and its caption recorded on its own', () => {
    expect(telegramMessageId('9')).toBe(9);
    expect(telegramMessageId('9:caption')).toBe(9);
  });
});
