import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { channel } from './sample-channel.ts';
import { panelReducer, type Panel } from './panel.ts';
import { connectStep, reconnectPlan, wantsQr } from './step.ts';

const followed = (over: Partial<Extract<Panel, { kind: 'follow' }>> = {}) =>
  ({ ...(panelReducer({ kind: 'new', transport: null }, { type: 'follow', channelId: 'c1', transport: 'whatsapp' }) as Extract<Panel, { kind: 'follow' }>), ...over });
const qrPush = (code: string, channel_id = 'c1'): StreamEvent => ({
  id: code,
  position: 1,
  name: 'channel.qr_update',
  payload: { channel_id, qr_code: code, platform: 'whatsapp' },
  created_at: '',
});

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
    const restarting = panelReducer(gone, { type: 'restarting', channelId: 'c1' }) as Extract<Panel, { kind: 'follow' }>;
    expect(connectStep(channel(), restarting, false)).toMatchObject({ kind: 'scan', qr: { kind: 'loading' } });
  });

  it('tells a channel not read yet from one deleted', () => {
    expect(connectStep(undefined, followed(), false)).toEqual({ kind: 'loading' });
    expect(connectStep(undefined, followed(), true)).toEqual({ kind: 'deleted' });
  });

  it('reads the QR only while a scan is awaited and no code is known', () => {
    expect(wantsQr(channel(), followed())).toBe(true);
    expect(wantsQr(channel({ reason: 'sync' }), followed())).toBe(false);
    expect(wantsQr(channel(), followed({ qr: { kind: 'live', code: 'x' } }))).toBe(false);
    expect(wantsQr(channel(), { kind: 'new', transport: null })).toBe(false);
  });
});

describe('the QR shown', () => {
  it('is replaced live by the stream, and an older read does not bring back an older code', () => {
    let p: Panel = followed();
    const version = (p as Extract<Panel, { kind: 'follow' }>).qrVersion;
    p = panelReducer(p, { type: 'event', event: qrPush('data:2') });
    p = panelReducer(p, { type: 'qrRead', channelId: 'c1', version, code: 'data:1' });
    expect(p).toMatchObject({ qr: { kind: 'live', code: 'data:2' } });
    p = panelReducer(p, { type: 'event', event: qrPush('data:other', 'c2') });
    expect(p).toMatchObject({ qr: { kind: 'live', code: 'data:2' } });
  });

  it('is gone when the read finds no live code', () => {
    const p = panelReducer(followed(), { type: 'qrRead', channelId: 'c1', version: 0, code: null });
    expect(p).toMatchObject({ qr: { kind: 'gone' } });
  });

  it('starts over on a reinit, dropping the pairing code', () => {
    let p: Panel = panelReducer(followed({ qr: { kind: 'live', code: 'x' } }), { type: 'pairing', channelId: 'c1', code: 'ABCD2345', phone: '79001112233' });
    expect(p).toMatchObject({ pairing: { code: 'ABCD2345' } });
    p = panelReducer(p, { type: 'restarting', channelId: 'c1' });
    expect(p).toMatchObject({ pairing: null, qr: { kind: 'loading' }, restarting: true });
    p = panelReducer(p, { type: 'failed', channelId: 'c1', error: 'Channel is not paid' });
    expect(p).toMatchObject({ restarting: false, error: 'Channel is not paid' });
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
