import { describe, expect, it } from 'vitest';
import { channel } from './sample-channel.ts';
import { connectStep, qrView, reconnectPlan, wantsQr, type Following } from './step.ts';

const followed = (over: Partial<Following> = {}): Following => ({ qr: { kind: 'loading' }, restarting: false, url: null, ...over });

describe('which step a channel is in', () => {
  it('reads the status and reason of the channel', () => {
    const p = followed({ qr: { kind: 'live', code: 'data:q' } });
    expect(connectStep(channel(), p, false)).toEqual({ kind: 'scan', qr: { kind: 'live', code: 'data:q' }, pairingCode: true });
    expect(connectStep(channel({ transport: 'tgapi', capabilities: { pairing_code: false } as never }), p, false)).toMatchObject({ kind: 'scan', pairingCode: false });
    expect(connectStep(channel({ reason: 'sync' }), p, false)).toEqual({ kind: 'syncing' });
    expect(connectStep(channel({ reason: 'wait_for_password' }), p, false)).toEqual({ kind: 'password' });
    expect(connectStep(channel({ status: 'active', reason: null }), p, false)).toEqual({ kind: 'connected' });
    expect(connectStep(channel({ status: 'disabled', reason: 'qridle' }), p, false)).toEqual({ kind: 'new-code' });
    expect(connectStep(channel({ status: 'disabled', reason: 'foreignphone' }), p, false)).toEqual({ kind: 'off', reason: 'foreignphone' });
    expect(connectStep(channel({ reason: 'wait_for_code' }), p, false)).toEqual({ kind: 'waiting' });
  });

  it('sends a wapi channel to the provider, by the URL of the list or of the create answer', () => {
    const wapi = channel({ transport: 'wapi', reason: null });
    expect(connectStep({ ...wapi, url: 'https://a.example' }, followed(), false)).toEqual({ kind: 'authorize', url: 'https://a.example' });
    expect(connectStep(wapi, followed({ url: 'https://b.example' }), false)).toEqual({ kind: 'authorize', url: 'https://b.example' });
  });

  it('offers a new code when the QR is gone, but not while a reinit is under way', () => {
    const gone = followed({ qr: { kind: 'gone' } });
    expect(connectStep(channel(), gone, false)).toEqual({ kind: 'new-code' });
    // A reinit drops the old code from the cache: loading again, and not offering another reinit meanwhile.
    expect(connectStep(channel(), followed({ qr: qrView(undefined), restarting: true }), false)).toMatchObject({ kind: 'scan', qr: { kind: 'loading' } });
    expect(connectStep(channel(), followed({ restarting: true }), false)).toMatchObject({ kind: 'scan', qr: { kind: 'loading' } });
  });

  it('tells a channel not read yet from one deleted', () => {
    expect(connectStep(undefined, followed(), false)).toEqual({ kind: 'loading' });
    expect(connectStep(undefined, followed(), true)).toEqual({ kind: 'deleted' });
  });

  it('reads the QR only while a scan is awaited', () => {
    expect(wantsQr(channel())).toBe(true);
    expect(wantsQr(channel({ reason: 'sync' }))).toBe(false);
    expect(wantsQr(channel({ status: 'active', reason: null }))).toBe(false);
    expect(wantsQr(undefined)).toBe(false);
  });
});

describe('the QR shown', () => {
  it('is being read, live (drawn from its content when the gateway gives it), or gone when no code is live', () => {
    expect(qrView(undefined)).toEqual({ kind: 'loading' });
    expect(qrView(null)).toEqual({ kind: 'gone' });
    expect(qrView({ qr_code: 'data:q' })).toEqual({ kind: 'live', code: 'data:q', content: undefined });
    expect(qrView({ qr_code: 'data:q', qr_content: '2@abc' })).toEqual({ kind: 'live', code: 'data:q', content: '2@abc' });
  });
});

describe('a frame opened to reconnect a channel', () => {
  it('reconnects a channel that is off, and leaves one that is connecting or connected as it is', () => {
    expect(reconnectPlan(undefined)).toBe('missing');
    expect(reconnectPlan(channel({ status: 'disabled', reason: 'unauthorized' }))).toBe('reinit');
    expect(reconnectPlan(channel({ transport: 'wapi', status: 'disabled', reason: 'rejected', capabilities: { connect: 'redirect_url' } as never }))).toBe('reinit');
    const bot = channel({ transport: 'telegram', status: 'disabled', reason: 'unauthorized', capabilities: { connect: 'bot_token' } as never });
    expect(reconnectPlan(bot)).toBe('credentials');
    expect(reconnectPlan(channel({ transport: 'vk', status: 'disabled', reason: null, capabilities: { connect: 'iframe' } as never }))).toBe('reinit');
    expect(reconnectPlan(channel({ reason: 'wait_for_password' }))).toBe('follow');
    expect(reconnectPlan(channel({ status: 'active', reason: null }))).toBe('follow');
  });
});
