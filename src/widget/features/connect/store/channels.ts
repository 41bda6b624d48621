import type { BffChannel } from '../../../../contract/session.ts';
import type { StreamEvent } from '../../../../contract/realtime.ts';

/**
 * The account's channels, kept current by the stream. A read of the list may answer after events that are
 * newer than what it read: `version` counts the changes the stream made, and a read carries the version it
 * started at (`since`), so it never undoes them. What the stream says about channels not listed (a new one, or
 * one whose list is still loading), and what it cannot say (the profile behind a new status), is fetched:
 * `stale` counts such events, and the list is read again.
 */
export interface ChannelsState {
  phase: 'loading' | 'ready' | 'failed';
  error: string | null;
  channels: BffChannel[];
  version: number;
  /** Per channel, the version of the stream's last change to it. */
  touched: ReadonlyMap<string, number>;
  /** Per channel, the stream position of the status shown (live pushes may arrive out of order). */
  positions: ReadonlyMap<string, number>;
  /** Channels deleted, with the version they went at: a read begun before must not bring them back. */
  gone: ReadonlyMap<string, number>;
  stale: number;
}

export type ChannelsAction =
  | { type: 'loaded'; channels: BffChannel[]; since: number }
  | { type: 'failed'; error: string }
  /** One channel as an answer of the gateway (created, reconnected, read), added or replaced. */
  | { type: 'upsert'; channel: BffChannel; since: number }
  | { type: 'removed'; channelId: string }
  | { type: 'event'; event: StreamEvent };

export const initialChannels = (): ChannelsState => ({
  phase: 'loading',
  error: null,
  channels: [],
  version: 0,
  touched: new Map(),
  positions: new Map(),
  gone: new Map(),
  stale: 0,
});

/** A channel as read, except what the stream changed after the read began. */
function fresher(state: ChannelsState, read: BffChannel, since: number): BffChannel {
  const current = state.channels.find((c) => c.channel_id === read.channel_id);
  if (!current || (state.touched.get(read.channel_id) ?? -1) <= since) return read;
  return { ...read, status: current.status, reason: current.reason, state: current.state, tier: current.tier, url: current.url };
}

const keep = (state: ChannelsState, since: number) => (c: BffChannel) => (state.gone.get(c.channel_id) ?? -1) <= since;

function touch(state: ChannelsState, channelId: string, change: (c: BffChannel) => BffChannel): ChannelsState {
  const version = state.version + 1;
  return {
    ...state,
    version,
    touched: new Map(state.touched).set(channelId, version),
    channels: state.channels.map((c) => (c.channel_id === channelId ? change(c) : c)),
  };
}

const listed = (state: ChannelsState, channelId: string) => state.phase === 'ready' && state.channels.some((c) => c.channel_id === channelId);
const stale = (state: ChannelsState): ChannelsState => ({ ...state, stale: state.stale + 1 });

function onEvent(state: ChannelsState, event: StreamEvent): ChannelsState {
  switch (event.name) {
    case 'channel.status_update': {
      const { channel_id: id, status, reason } = event.payload;
      if (state.gone.has(id)) return state;
      if (!listed(state, id)) return stale(state);
      if ((state.positions.get(id) ?? -1) >= event.position) return state;
      const next = touch(state, id, (c) => ({
        ...c,
        status,
        reason,
        state: reason ?? status,
        // The authorization URL is wanted only until the channel is authorized.
        ...(status === 'active' ? { url: undefined } : {}),
      }));
      // The event carries no profile, and a scan or a reconnect is when the messenger tells the name and
      // phone: the list is read again (counted as stale), keeping this status if the read is older.
      return { ...next, positions: new Map(state.positions).set(id, event.position), stale: state.stale + 1 };
    }
    case 'channel.waba_tier_update': {
      const { channel_id: id, tier } = event.payload;
      return listed(state, id) ? touch(state, id, (c) => ({ ...c, tier })) : state;
    }
    case 'channel.create':
      return listed(state, event.payload.channel_id) ? state : stale(state);
    case 'channel.delete':
      return remove(state, event.payload.channel_id);
    default:
      return state;
  }
}

function remove(state: ChannelsState, channelId: string): ChannelsState {
  const version = state.version + 1;
  return { ...state, version, gone: new Map(state.gone).set(channelId, version), channels: state.channels.filter((c) => c.channel_id !== channelId) };
}

export function channelsReducer(state: ChannelsState, action: ChannelsAction): ChannelsState {
  switch (action.type) {
    case 'loaded':
      return { ...state, phase: 'ready', error: null, channels: action.channels.filter(keep(state, action.since)).map((c) => fresher(state, c, action.since)) };
    case 'failed':
      // A list already shown stays; only a first read that failed says so in place of the list.
      return state.phase === 'ready' ? state : { ...state, phase: 'failed', error: action.error };
    case 'upsert': {
      if (!keep(state, action.since)(action.channel)) return state;
      const channel = fresher(state, action.channel, action.since);
      const exists = state.channels.some((c) => c.channel_id === channel.channel_id);
      return { ...state, channels: exists ? state.channels.map((c) => (c.channel_id === channel.channel_id ? channel : c)) : [...state.channels, channel] };
    }
    case 'removed':
      return remove(state, action.channelId);
    case 'event':
      return onEvent(state, action.event);
  }
}
