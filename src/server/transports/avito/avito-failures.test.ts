import { describe, expect, it } from 'vitest';
import { AvitoApiError } from './avito-api.ts';
import { failureOf, mayRefuseToken, refusesFile, waitAsked } from './avito-failures.ts';

const refusal = (status: number, message = '', retryAfterMs: number | null = null) => new AvitoApiError(status, message, retryAfterMs);

describe('Avito’s refusals of a send', () => {
  it.each([
    [401, '', 'session_revoked'],
    [402, 'Payment required', 'message_channel_unavailable'],
    [403, 'Forbidden', 'chat_is_blocked'],
    [404, 'Chat not found', 'messages_not_text_first'],
    [400, 'Validation error: message.text must be at most 1000 characters long', 'text_length_is_too_much'],
    [400, 'Bad Request', 'bad_required_parameter'],
    [418, '', 'unknown_error'],
  ] as const)('%i %s is %s', (status, message, reason) => {
    expect(failureOf(refusal(status, message))).toBe(reason);
  });

  it.each([408, 429, 500, 502, 503])('%i may pass: the send is tried again', (status) => {
    expect(failureOf(refusal(status))).toBeNull();
  });

  it('waits as long as Avito asks, a minute (its window) when a 429 does not say, and no longer than usual otherwise', () => {
    expect(waitAsked(refusal(429, '', 30_000))).toBe(30_000);
    expect(waitAsked(refusal(429))).toBe(60_000);
    expect(waitAsked(refusal(503))).toBeNull();
    expect(waitAsked(refusal(503, '', 5_000))).toBe(5_000);
  });

  it('takes 401 and 403 as possibly the token’s, and an upload’s other 4xx as the file’s', () => {
    expect([400, 401, 403, 404, 429].map((s) => mayRefuseToken(refusal(s)))).toEqual([false, true, true, false, false]);
    expect(mayRefuseToken(new Error('x'))).toBe(false);
    expect([400, 413, 415, 401, 403, 429, 500].map((s) => refusesFile(refusal(s)))).toEqual([true, true, true, false, false, false, false]);
  });
});
