import { describe, expect, it } from 'vitest';
import { checkSubscriptionUrl } from './url-policy.ts';

const strict = { allowLoopback: false };
const demo = { allowLoopback: true };

describe('subscription URL shape', () => {
  it.each(['https://crm.example.com/hooks', 'https://crm.example.com:8443/a?b=c', 'https://203.0.113.7/in'])('accepts %s', (url) => {
    expect(checkSubscriptionUrl(url, strict)).toBeNull();
  });

  it.each([
    ['http://crm.example.com/hooks', 'scheme must be https'],
    ['ftp://crm.example.com/', 'scheme must be https'],
    ['not a url', 'not a valid absolute URL'],
    ['https://user:pass@crm.example.com/', 'must not carry credentials'],
    ['https://intranet/hooks', 'host must be a fully qualified name'],
    [`https://crm.example.com/${'a'.repeat(2100)}`, 'longer than 2048 characters'],
    ['http://127.0.0.1:3000/hook', 'loopback addresses are not allowed'],
    ['https://localhost/hook', 'loopback addresses are not allowed'],
    ['http://[::1]:3000/hook', 'loopback addresses are not allowed'],
  ])('refuses %s: %s', (url, reason) => {
    expect(checkSubscriptionUrl(url, strict)).toBe(reason);
  });

  it('lets plain-HTTP loopback through only when the operator allows it', () => {
    expect(checkSubscriptionUrl('http://127.0.0.1:3000/hook', demo)).toBeNull();
    expect(checkSubscriptionUrl('http://localhost:3000/hook', demo)).toBeNull();
    expect(checkSubscriptionUrl('http://crm.example.com/hook', demo)).toBe('scheme must be https');
  });
});
