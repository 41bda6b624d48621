import { describe, expect, it } from 'vitest';
import { staticResolver } from '../../testing/static-resolver.ts';
import { classifyAddress, refuseAddress } from './address-policy.ts';
import { checkSubscriptionTarget, checkSubscriptionUrl } from './url-policy.ts';

const strict = { allowLoopback: false };
const demo = { allowLoopback: true };

describe('subscription URL shape', () => {
  it.each(['https://crm.example.com/hooks', 'https://crm.example.com:8443/a?b=c', 'https://93.184.215.7/in'])('accepts %s', (url) => {
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

describe('addresses a webhook may not reach', () => {
  it.each([
    ['8.8.8.8', null],
    ['2606:4700::1111', null],
    ['93.184.215.7', null],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', null],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'unique-local'],
    ['fc12::1', 'unique-local'],
    ['0.0.0.0', 'reserved'],
    ['::', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.7', 'reserved'],
    ['2001:db8::7', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['ff02::1', 'reserved'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:c0a8:0101::1', 'private'],
    // IANA's IPv6 special-purpose ranges that are not globally reachable, whatever they embed.
    ['::ffff:8.8.8.8', 'reserved'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:808:808', 'reserved'],
    ['::8.8.8.8', 'reserved'],
    ['64:ff9b::808:808', 'reserved'],
    ['64:ff9b:1::1', 'reserved'],
    ['2001:0::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:10::1', 'reserved'],
    ['2001:1ff::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['100::1', 'reserved'],
    ['100:0:0:1::1', 'reserved'],
    ['fec0::1', 'unique-local'],
    ['2002:0808:0808::1', null],
    ['2002:7f00:0001::1', 'loopback'],
    ['2a00:1450:4001:82a::200e', null],
    ['2001:4860:4860::8888', null],
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it('lets loopback through only when the operator allows it', () => {
    expect(refuseAddress('127.0.0.1', { allowLoopback: true })).toBeNull();
    expect(refuseAddress('127.0.0.1', { allowLoopback: false })).toBe('loopback addresses are not allowed');
    expect(refuseAddress('10.0.0.1', { allowLoopback: true })).toBe('private addresses are not allowed');
  });
});

describe('subscribe-time check of where a name points', () => {
  const resolver = staticResolver({ 'inside.example.com': ['10.0.0.8'], 'both.example.com': ['93.184.215.5', 'fd00::5'] });

  it.each([
    ['https://crm.example.com/hook', null],
    ['https://inside.example.com/hook', 'resolves to 10.0.0.8: private addresses are not allowed'],
    ['https://both.example.com/hook', 'resolves to fd00::5: unique local addresses are not allowed'],
    ['https://gone.invalid/hook', 'host name does not resolve'],
    ['https://10.0.0.1/hook', 'private addresses are not allowed'],
    ['http://crm.example.com/hook', 'scheme must be https'],
  ])('%s → %s', async (url, reason) => {
    expect(await checkSubscriptionTarget(url, strict, resolver)).toBe(reason);
  });

  it('lets loopback names through without asking DNS when allowed', async () => {
    expect(await checkSubscriptionTarget('http://localhost:9000/hook', demo, async () => [])).toBeNull();
  });
});
