import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../../contract/realtime.ts';
import { Freshness } from '@/lib/event-stream.ts';
import { channel } from '../store/sample-channel.ts';
import { applyToChannels } from './channels-cache.ts';

let position = 0;
const event = <N extends StreamEvent['name']>(name: N, payload: Extract<StreamEvent, { name: N }>['payload'], pos = ++position): StreamEvent =>
  ({ id: `e${pos}`, position: pos, name, payload, created_at: '' }) as StreamEvent;
const status = (id: string, s: 'init' | 'active' | 'disabled', reason: string | null, pos?: number) =>
  event('channel.status_update', { channel_id: id, status: s, reason, state: reason ?? s } as never, pos);

describe('the channel list in the cache', () => {
  it('follows the status of listed channels in stream order, and reads the list again for their profile', () => {
    const fresh = new Freshness();
    const isNewer = (id: string, p: number) => fresh.isNewer(id, p);
    let list = [channel({ channel_id: 'c1' })];
    const later = applyToChannels(list, status('c1', 'active', null, 20), isNewer);
    expect(later.reread).toBe(true);
    list = later.list;
    const older = applyToChannels(list, status('c1', 'init', 'qr', 19), isNewer);
    expect(older.list[0]).toMatchObject({ status: 'active', reason: null });
  });

  it('drops the authorization URL once the channel is active', () => {
    const list = [channel({ channel_id: 'c1', transport: 'wapi', reason: null, url: 'https://a.example' })];
    expect(applyToChannels(list, status('c1', 'active', null), () => true).list[0]!.url).toBeUndefined();
  });

  it('reads the list again for channels it does not hold, and drops deleted ones', () => {
    const list = [channel({ channel_id: 'c1' })];
    expect(applyToChannels(list, status('c9', 'init', 'qr'), () => true)).toMatchObject({ reread: true, list });
    expect(applyToChannels(list, event('channel.create', { channel_id: 'c9' } as never), () => true).reread).toBe(true);
    expect(applyToChannels(list, event('channel.create', { channel_id: 'c1' } as never), () => true).reread).toBe(false);
    expect(applyToChannels(list, event('channel.delete', { channel_id: 'c1' } as never), () => true).list).toEqual([]);
  });
});
