import { describe, expect, it } from 'vitest';
import { MaxApiError, MaxApiUnreachable } from './bot-api.ts';
import { changeRefused, failureOf, waitAsked } from './bot-failures.ts';

describe('refused sends, as MAX words them', () => {
  it('name the interface’s failure reason, in a dialog (max) and in a group (maxgroup)', () => {
    const cases: [number, string, string, 'max' | 'maxgroup', string][] = [
      [401, 'verify.token', 'Invalid access_token', 'max', 'session_revoked'],
      [403, 'chat.denied', 'Key: error.dialog.suspended, args: [5555,].', 'max', 'chat_is_blocked'],
      [403, 'chat.denied', 'You are not a member of this chat', 'maxgroup', 'channel_private'],
      [404, 'chat.not.found', 'Chat not found', 'max', 'contact_can_not_create'],
      [404, 'chat.not.found', 'Chat not found', 'maxgroup', 'channel_private'],
      [400, 'not.found', 'User not found', 'max', 'contact_can_not_create'],
      [400, 'proto.payload', "Field 'text' size (4001) must be at most 4000", 'max', 'text_length_is_too_much'],
      [400, 'proto.payload', 'Invalid photo token provided', 'max', 'bad_content'],
      [400, 'proto.payload', 'Must be only one file attachment in message', 'max', 'bad_content'],
      [400, 'errors.process.attachment.video.not.supported', '', 'max', 'bad_content'],
      [400, 'proto.payload', 'Missing required parameter: user_id', 'max', 'bad_required_parameter'],
      [405, 'method.not.allowed', 'Method is not allowed', 'max', 'unknown_error'],
    ];
    for (const [status, code, message, chatType, reason] of cases) expect(failureOf(new MaxApiError(status, code, message), chatType), `${status} ${code} ${message}`).toBe(reason);
  });

  it('leave to a later try what may work then: too many requests, a file still processed, MAX’s own failures', () => {
    expect(failureOf(new MaxApiError(429, 'too.many.requests', ''), 'max')).toBeNull();
    expect(failureOf(new MaxApiError(400, 'attachment.not.ready', 'Key: errors.process.attachment.file.not.processed'), 'max')).toBeNull();
    expect(failureOf(new MaxApiError(503, '', 'Service unavailable'), 'max')).toBeNull();
  });

  it('wait as long as MAX asked, and a second after a 429 that did not say', () => {
    expect(waitAsked(new MaxApiError(429, 'too.many.requests', '', 3000))).toBe(3000);
    expect(waitAsked(new MaxApiError(429, '', ''))).toBe(1000);
    expect(waitAsked(new MaxApiError(502, '', ''))).toBeNull();
  });
});

describe('refused edits and deletes', () => {
  it('tell the caller what it can do about them', () => {
    expect(changeRefused(new MaxApiError(404, 'not.found', 'Message not found'), 'edited').code).toBe('MESSAGE_NOT_FOUND');
    expect(changeRefused(new MaxApiError(403, 'chat.denied', 'Cannot edit'), 'edited').code).toBe('FORBIDDEN');
    expect(changeRefused(new MaxApiError(403, 'access.denied', 'No permission'), 'deleted').message).toMatch(/does not let the bot delete/);
    expect(changeRefused(new MaxApiError(401, 'verify.token', 'Invalid access_token'), 'deleted').code).toBe('CHANNEL_WRONG_STATUS');
    expect(changeRefused(new MaxApiError(200, '', 'Message is too old'), 'deleted').code).toBe('SERVICE_UNAVAILABLE');
    expect(changeRefused(new MaxApiError(429, 'too.many.requests', ''), 'deleted').code).toBe('SERVICE_UNAVAILABLE');
    expect(changeRefused(new MaxApiUnreachable('timeout'), 'edited').code).toBe('SERVICE_UNAVAILABLE');
  });
});
