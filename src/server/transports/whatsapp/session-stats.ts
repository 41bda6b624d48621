import type { SendAcks } from './acks.ts';

/** Where a session of this process is: connecting (no connection open yet), open, or unreachable (shown so on its channel). */
export type WaSessionState = 'connecting' | 'open' | 'unreachable';

/** What the metrics read of this process's WhatsApp sessions: each by its state, their reconnects, their unacknowledged sends. */
export class WaSessionStats {
  readonly #states = new Map<string, WaSessionState>();
  readonly acks: SendAcks;
  reconnects = 0;

  constructor(acks: SendAcks) {
    this.acks = acks;
  }

  set(channelId: string, state: WaSessionState): void {
    this.#states.set(channelId, state);
  }

  /** The session stopped running here. */
  gone(channelId: string): void {
    this.#states.delete(channelId);
  }

  byState(): Record<WaSessionState, number> {
    const counts: Record<WaSessionState, number> = { connecting: 0, open: 0, unreachable: 0 };
    for (const state of this.#states.values()) counts[state]++;
    return counts;
  }
}
