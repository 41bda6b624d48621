import { describe, expect, it } from 'vitest';
import { GraphApiError, waitFromHeaders } from '../meta/graph-api.ts';
import { failureOf, isQuoteRefused, isTokenRefused, waitAsked } from './graph-failures.ts';

const refusal = (code: number, message: string, subcode: number | null = null, status = 400, transient = false, retryAfterMs: number | null = null) =>
  new GraphApiError(status, { code, subcode, message, transient }, retryAfterMs);

describe('refused Instagram sends, as Meta words them', () => {
  it('name the interface’s failure reason', () => {
    const cases: [GraphApiError, string][] = [
      [refusal(190, 'Error validating access token: The session has been invalidated.', 460), 'session_revoked'],
      [refusal(102, 'Session key invalid or no longer valid'), 'session_revoked'],
      [refusal(10, 'This message is sent outside of allowed window.', 2534022), 'messages_not_text_first'],
      [refusal(10, '(#10) This message is sent outside of allowed window. Learn more about the new policy here', 2018278), 'messages_not_text_first'],
      [refusal(551, 'This person isn’t available right now.'), 'chat_is_blocked'],
      [refusal(100, 'No matching user found', 2018001), 'bad_contact'],
      [refusal(100, 'The user cannot be found', 2534014), 'bad_contact'],
      [refusal(368, 'The action attempted has been deemed abusive or is otherwise disallowed'), 'is_spam'],
      [refusal(100, '(#100) Length of param message[text] must be less than or equal to 1000'), 'text_length_is_too_much'],
      [refusal(100, '(#100) Failed to fetch the file from the url', 2018008), 'can_not_get_content'],
      [refusal(100, '(#100) Upload attachment failure.', 2018047), 'bad_content'],
      [refusal(100, 'Attachment size exceeds allowable limit'), 'bad_content'],
      [refusal(200, '(#200) The app does not have the instagram_manage_messages permission'), 'no_user_permissions'],
      [refusal(10, '(#10) Application does not have permission for this action'), 'no_user_permissions'],
      [refusal(100, '(#100) Param recipient[id] must be a valid ID string'), 'bad_required_parameter'],
      [refusal(12, 'Deprecated'), 'unknown_error'],
    ];
    for (const [err, reason] of cases) expect(failureOf(err), `${err.code}/${err.subcode} ${err.message}`).toBe(reason);
  });

  it('leave to a later try what may pass: rate limits, Meta’s own failures, what Meta calls transient', () => {
    for (const code of [4, 17, 32, 613, 80002, 80006]) expect(failureOf(refusal(code, 'rate limit'))).toBeNull();
    expect(failureOf(refusal(1200, 'Temporary send message failure. Please try again later.'))).toBeNull();
    expect(failureOf(refusal(2, 'An unexpected error has occurred. Please retry your request later.'))).toBeNull();
    expect(failureOf(refusal(1, 'An unknown error occurred', null, 500))).toBeNull();
    expect(failureOf(refusal(100, 'Whatever', null, 400, true))).toBeNull();
    expect(failureOf(refusal(0, '', null, 429))).toBeNull();
  });

  it('wait as long as Meta asked, and a minute for a rate limit that did not say', () => {
    expect(waitAsked(refusal(613, 'Calls to this api have exceeded the rate limit.', null, 400, false, 120_000))).toBe(120_000);
    expect(waitAsked(refusal(4, 'Application request limit reached'))).toBe(60_000);
    expect(waitAsked(refusal(2, 'unexpected'))).toBeNull();
  });

  it('tell a refused token and a refused quote', () => {
    expect(isTokenRefused(refusal(190, 'expired', 463))).toBe(true);
    expect(isTokenRefused(refusal(100, 'Invalid parameter'))).toBe(false);
    expect(isTokenRefused(new Error('190'))).toBe(false);
    expect(isQuoteRefused(refusal(100, '(#100) Param reply_to[mid] is not a valid message id'))).toBe(true);
    expect(isQuoteRefused(refusal(100, '(#100) Param recipient[id] must be a valid ID string'))).toBe(false);
  });
});

describe('how long Meta asks to wait', () => {
  it('reads Retry-After, else the longest time to regain access of the usage headers (minutes), else nothing', () => {
    expect(waitFromHeaders({ 'retry-after': '7' })).toBe(7_000);
    expect(waitFromHeaders({ 'retry-after': new Date(1_000_000 + 5_000).toUTCString() }, 1_000_000)).toBe(5_000);
    const usage = JSON.stringify({ '1784': [{ type: 'instagram', call_count: 100, estimated_time_to_regain_access: 3 }, { type: 'messenger', estimated_time_to_regain_access: 0 }], '1785': [{ estimated_time_to_regain_access: 5 }] });
    expect(waitFromHeaders({ 'x-business-use-case-usage': usage })).toBe(5 * 60_000);
    expect(waitFromHeaders({ 'x-business-use-case-usage': JSON.stringify({ '1784': [{ call_count: 20 }] }) })).toBeNull();
    expect(waitFromHeaders({ 'x-business-use-case-usage': 'not json' })).toBeNull();
    expect(waitFromHeaders({})).toBeNull();
  });
});
