import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import type { BffChannel } from '../../../../contract/session.ts';
import { channel } from './sample-channel.ts';
import { channelsReducer, initialChannels, type ChannelsState } from './channels.ts';

let position = 0;
const status = (channel_id: string, s: BffChannel['status'], reason: string | null, at = ++position): StreamEvent => ({
  id: `e${at}`,
  position: at,
  name: 'channel.status_update',
  payload: { channel_id, status: s, reason },
  created_at: '',
});
const lifecycle = (name: 'channel.create' | 'channel.delete', channel_id: string): StreamEvent => ({
  id: `e${++position}`,
  position,
  name,
  payload: { channel_id, timestamp: 0 },
  created_at: '',
});

const loaded = (channels: BffChannel[], state = initialChannels()): ChannelsState => channelsReducer(state, { type: 'loaded', channels, since: state.version });

describe('the channel list', () => {
  it('follows the status of listed channels, in stream order', () => {
    let s = loaded([channel()]);
    s = channelsReducer(s, { type: 'event', event: status('c1', 'init', 'sync', 10) });
    s = channelsReducer(s, { type: 'event', event: status('c1', 'init', 'qr', 9) });
    expect(s.channels[0]).toMatchObject({ status: 'init', reason: 'sync', state: 'sync' });
    s = channelsReducer(s, { type: 'event', event: status('c1', 'active', null, 11) });
    expect(s.channels[0]).toMatchObject({ status: 'active', reason: null, state: 'active' });
    // Each new status may come with a new profile (name, phone), which only a read tells.
    expect(s.stale).toBe(2);
  });

  it('drops the authorization URL once the channel is active', () => {
    let s = loaded([channel({ transport: 'wapi', reason: null, url: 'https://p.example/auth' })]);
    s = channelsReducer(s, { type: 'event', event: status('c1', 'active', null) });
    expect(s.channels[0]!.url).toBeUndefined();
  });

  it('reads the list again for channels it cannot place: new ones, or news while loading', () => {
    let s = initialChannels();
    s = channelsReducer(s, { type: 'event', event: status('c1', 'init', 'qr') });
    expect(s.stale).toBe(1);
    s = loaded([channel()], s);
    s = channelsReducer(s, { type: 'event', event: lifecycle('channel.create', 'c2') });
    expect(s.stale).toBe(2);
    s = channelsReducer(s, { type: 'event', event: lifecycle('channel.create', 'c1') });
    expect(s.stale).toBe(2);
  });

  it('keeps what the stream said after a read began', () => {
    let s = loaded([channel()]);
    const since = s.version;
    s = channelsReducer(s, { type: 'event', event: status('c1', 'active', null) });
    s = channelsReducer(s, { type: 'loaded', channels: [channel({ name: 'Ann' }), channel({ channel_id: 'c2' })], since });
    expect(s.channels.map((c) => [c.channel_id, c.status, c.name])).toEqual([
      ['c1', 'active', 'Ann'],
      ['c2', 'init', null],
    ]);
    // A read begun after the change takes what it read.
    s = channelsReducer(s, { type: 'loaded', channels: [channel({ status: 'disabled', reason: 'unauthorized' })], since: s.version });
    expect(s.channels[0]).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
  });

  it('forgets deleted channels, even when an older read or answer still has them', () => {
    let s = loaded([channel(), channel({ channel_id: 'c2' })]);
    const since = s.version;
    s = channelsReducer(s, { type: 'event', event: lifecycle('channel.delete', 'c1') });
    expect(s.channels.map((c) => c.channel_id)).toEqual(['c2']);
    s = channelsReducer(s, { type: 'loaded', channels: [channel(), channel({ channel_id: 'c2' })], since });
    s = channelsReducer(s, { type: 'upsert', channel: channel(), since });
    s = channelsReducer(s, { type: 'event', event: status('c1', 'disabled', null) });
    expect(s.channels.map((c) => c.channel_id)).toEqual(['c2']);
    expect(s.stale).toBe(0);
    s = channelsReducer(s, { type: 'removed', channelId: 'c2' });
    expect(s.channels).toEqual([]);
  });

  it('adds or replaces a channel the gateway answered with', () => {
    let s = loaded([channel()]);
    s = channelsReducer(s, { type: 'upsert', channel: channel({ channel_id: 'c2', transport: 'telegram', status: 'active', reason: null }), since: s.version });
    s = channelsReducer(s, { type: 'upsert', channel: channel({ status: 'disabled', reason: 'qridle' }), since: s.version });
    expect(s.channels.map((c) => [c.channel_id, c.status])).toEqual([
      ['c1', 'disabled'],
      ['c2', 'active'],
    ]);
  });

  it('keeps a list shown when a later read fails', () => {
    expect(channelsReducer(initialChannels(), { type: 'failed', error: 'down' })).toMatchObject({ phase: 'failed', error: 'down' });
    const s = loaded([channel()]);
    expect(channelsReducer(s, { type: 'failed', error: 'down' })).toBe(s);
  });
});
