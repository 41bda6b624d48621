import { applyTrigger } from './channel-steps.ts';
import type { ChannelRecord } from './ports.ts';
import { transition } from './state-machine.ts';
import type { TransportRulesRegistry } from './transport-rules.ts';
import type { Clock, TransactionScope } from '../ports.ts';

/**
 * A personal account's session whose connection is down is never shown `active`: past its threshold the channel is
 * `init` with no reason (starting: its session is reconnecting), and it is `active` again as soon as the connection
 * opens. Only an active channel becomes unreachable, only such a channel comes back: a QR, a sync or a disabled
 * channel stays as it is.
 */
async function step(tx: TransactionScope, deps: { clock: Clock }, channelId: string, trigger: 'session_unreachable' | 'session_restored'): Promise<boolean> {
  const channel = await tx.channels.getByIdForUpdate(channelId);
  if (!channel || !transition(channel.state, trigger).ok) return false;
  await applyTrigger(tx, deps, channel, trigger);
  return true;
}

/**
 * The session's connection has been down past its threshold: the channel shows it (`init`, no reason). In the
 * caller's transaction, which checks that this process still holds the session.
 */
export const sessionUnreachable = (tx: TransactionScope, deps: { clock: Clock }, channelId: string): Promise<boolean> => step(tx, deps, channelId, 'session_unreachable');

/** The session's connection opened again: a channel shown unreachable is `active` again (in the caller's fenced transaction). */
export const sessionRestored = (tx: TransactionScope, deps: { clock: Clock }, channelId: string): Promise<boolean> => step(tx, deps, channelId, 'session_restored');

/** Whether a channel's sends wait rather than fail: its session is reconnecting (a QR transport's channel, `init` with no reason). */
export const sessionReconnecting = (rules: TransportRulesRegistry, channel: ChannelRecord): boolean =>
  channel.state.status === 'init' && channel.state.reason === null && rules[channel.transport].qrPlatform !== null;
