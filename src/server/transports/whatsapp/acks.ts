import { TransientSendError } from '../../core/messages/ports.ts';
import type { Timers, TimerHandle } from './timers.ts';

/**
 * How long a send waits for WhatsApp's acknowledgement of its message (the server's `<ack class="message">`) before
 * it goes back to the send queue, to be written again under the same id. WhatsApp acknowledges within a second on a
 * live connection; the wait stays well inside a send's 30 s claim, so no second sender takes it meanwhile.
 */
export const ACK_WAIT_MS = 10_000;

/** How long a written message counts as unacknowledged in the metrics at most (its send failed for good by then). */
const UNACKED_FORGET_MS = 60 * 60 * 1000;
/** Acknowledgements remembered after their send stopped waiting (a late one spares the next try its write). */
const ACKED_KEPT = 10_000;

/** WhatsApp's acknowledgement of one message the account wrote: taken, or refused with an error code. */
export interface WaAck {
  id: string;
  /** The code of a refusal (`463`, `479`, ...); absent when WhatsApp took the message. */
  error?: string;
}

interface Waiter {
  channelId: string;
  settle(ack: WaAck | Error): void;
}

/**
 * The messages this process wrote to WhatsApp and WhatsApp has not acknowledged yet, by message id: what a send waits
 * on, what a lost connection fails back to the queue, and what the metrics count. The message itself stays `accepted`
 * in the database until its acknowledgement is recorded, so whichever process runs the session next writes it again.
 */
export class SendAcks {
  readonly #timers: Timers;
  /** Unacknowledged messages: their channel and when they were first written. */
  readonly #unacked = new Map<string, { channelId: string; since: number }>();
  /** Acknowledgements that came while nobody waited (in arrival order, oldest dropped first). */
  readonly #acked = new Map<string, WaAck>();
  readonly #waiters = new Map<string, Waiter>();

  constructor(timers: Timers) {
    this.#timers = timers;
  }

  /** A message is about to be written: unacknowledged from now (from its first write, if written before). */
  written(channelId: string, id: string): void {
    if (!this.#unacked.has(id)) this.#unacked.set(id, { channelId, since: this.#timers.now() });
  }

  /** WhatsApp's acknowledgement, if it came already (the id written before, and acknowledged after its wait ended). */
  known(id: string): WaAck | undefined {
    return this.#acked.get(id);
  }

  /**
   * Waits for the acknowledgement of a written message: answers it, or throws TransientSendError when it did not
   * come within `ms` or the connection closed first (the send is tried again later under the same id).
   */
  async wait(channelId: string, id: string, ms: number): Promise<WaAck> {
    const known = this.#acked.get(id);
    if (known) return known;
    let timer: TimerHandle | null = null;
    try {
      return await new Promise<WaAck>((resolve, reject) => {
        this.#waiters.set(id, { channelId, settle: (ack) => (ack instanceof Error ? reject(ack) : resolve(ack)) });
        timer = this.#timers.set(() => reject(new TransientSendError(`WhatsApp did not acknowledge the message within ${ms / 1000} s`)), ms);
      });
    } finally {
      this.#timers.clear(timer);
      this.#waiters.delete(id);
    }
  }

  /** WhatsApp acknowledged a message (taken or refused): it is no longer in flight. */
  ack(ack: WaAck): void {
    this.#unacked.delete(ack.id);
    const waiter = this.#waiters.get(ack.id);
    if (waiter) return waiter.settle(ack);
    this.#acked.set(ack.id, ack);
    if (this.#acked.size > ACKED_KEPT) this.#acked.delete(this.#acked.keys().next().value!);
  }

  /** A channel's connection closed: its waiting sends go back to the queue at once, to be written again after it reopens. */
  connectionLost(channelId: string): void {
    for (const waiter of this.#waiters.values()) {
      if (waiter.channelId === channelId) waiter.settle(new TransientSendError('the WhatsApp connection closed before WhatsApp acknowledged the message'));
    }
  }

  /** This process stopped running the channel's session: whoever runs it next writes its unacknowledged sends again. */
  released(channelId: string): void {
    this.connectionLost(channelId);
    for (const [id, entry] of this.#unacked) if (entry.channelId === channelId) this.#unacked.delete(id);
  }

  /** How many written messages wait for their acknowledgement, and how long the oldest has waited. */
  stats(): { unacked: number; oldestAgeMs: number } {
    const now = this.#timers.now();
    let oldest = now;
    for (const [id, entry] of this.#unacked) {
      if (now - entry.since > UNACKED_FORGET_MS) this.#unacked.delete(id);
      else oldest = Math.min(oldest, entry.since);
    }
    return { unacked: this.#unacked.size, oldestAgeMs: now - oldest };
  }
}
