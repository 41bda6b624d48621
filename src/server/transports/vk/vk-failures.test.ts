import { describe, expect, it } from 'vitest';
import { VkApiError } from './vk-api.ts';
import { failureOf, isKeyRefused } from './vk-failures.ts';

describe('VK’s refusals of a send', () => {
  it.each([
    [6, 'Too many requests per second', { kind: 'retry', waitMs: 1000 }],
    [9, 'Flood control', { kind: 'retry', waitMs: 60_000 }],
    [10, 'Internal server error', { kind: 'retry', waitMs: 1000 }],
    [29, 'Rate limit reached', { kind: 'retry', waitMs: 60_000 }],
    [5, 'User authorization failed: invalid access_token (4).', { kind: 'revoked' }],
    [27, 'Group authorization failed: group access token is invalid', { kind: 'revoked' }],
    [28, 'Application authorization failed', { kind: 'revoked' }],
    [901, 'Can’t send messages for users without permission', { kind: 'failed', reason: 'chat_is_blocked' }],
    [902, 'Can’t send messages to this user due to their privacy settings', { kind: 'failed', reason: 'chat_is_blocked' }],
    [914, 'Message is too long', { kind: 'failed', reason: 'text_length_is_too_much' }],
    [7, 'Permission to perform this action is denied', { kind: 'failed', reason: 'no_user_permissions' }],
    [15, 'Access denied', { kind: 'failed', reason: 'no_user_permissions' }],
    [917, 'You don’t have access to this chat', { kind: 'failed', reason: 'no_user_permissions' }],
    [936, 'Contact not found', { kind: 'failed', reason: 'bad_contact' }],
    [921, 'Can’t forward these messages', { kind: 'failed', reason: 'bad_required_parameter' }],
    [100, 'One of the parameters specified was missing or invalid: peer_id is undefined', { kind: 'failed', reason: 'bad_contact' }],
    [100, 'One of the parameters specified was missing or invalid: reply_to', { kind: 'failed', reason: 'bad_required_parameter' }],
    [1, 'Unknown error occurred', { kind: 'failed', reason: 'unknown_error' }],
  ])('reads code %i (%s)', (code, message, expected) => {
    expect(failureOf(new VkApiError(code, message))).toEqual(expected);
  });

  it('takes 5, 27 and 28 alone as the key refused', () => {
    expect([5, 27, 28, 6, 15, 901].map((code) => isKeyRefused(new VkApiError(code, '')))).toEqual([true, true, true, false, false, false]);
    expect(isKeyRefused(new Error('5'))).toBe(false);
  });
});
