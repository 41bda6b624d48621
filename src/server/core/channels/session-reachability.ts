import { applyTrigger } from './channel-steps.ts';
import type { ChannelRecord } from './ports.ts';
import { transition } from './state-machine.ts';
import type { TransportRulesRegistry } from './transport-rules.ts';
import type { Clock, Store } from '../ports.ts';

/**
 * A personal account's session whose connection is down is never shown `active`: past its threshold the channel is
 * `init` with no reason (starting: its session is reconnecting), and it is `active` again as soon as the connection
 * opens. Only an active channel becomes unreachable, only such a channel comes back: a QR, a sync or a disabled
 * channel stays as it is.
 */
async function step(deps: { store: Store; clock: Clock }, channelId: string, trigger: 'session_unreachable' | 'session_restored'): Promise<boolean> {
  return deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (!channel || !transition(channel.state, trigger).ok) return false;
    await applyTrigger(tx, deps, channel, trigger);
    return true;
  });
}

/** The session's connection has been down past its threshold: the channel shows it (`init`, no reason). */
export const sessionUnreachable = (deps: { store: Store; clock: Clock }, channelId: string): Promise<boolean> => step(deps, channelId, 'session_unreachable');

/** The session's connection opened again: a channel shown unreachable is `active` again. */
export const sessionRestored = (deps: { store: Store; clock: Clock }, channelId: string): Promise<boolean> => step(deps, channelId, 'session_restored');

/** Whether a channel's sends wait rather than fail: its session is reconnecting (a QR transport's channel, `init` with no reason). */
export const sessionReconnecting = (rules: TransportRulesRegistry, channel: ChannelRecord): boolean =>
  channel.state.status === 'init' && channel.state.reason === null && rules[channel.transport].qrPlatform !== null;
