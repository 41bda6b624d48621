import { TransientSendError } from '../../core/messages/ports.ts';
import type { TimerHandle, Timers } from './timers.ts';

/**
 * How many sends of one channel are written and waiting for WhatsApp's acknowledgement at a time. After a reconnect
 * the send queue hands over every chat's unacknowledged send at once (a batch of up to 32 chats), each of which the
 * library writes as several frames (a device list query, a pre-key fetch, the message); WhatsApp slows down or drops
 * a client that floods it. WhatsApp Web itself writes one message after another.
 */
export const SENDS_IN_FLIGHT = 4;

/**
 * How long a send waits for its turn before it goes back to the queue (to be tried again after its backoff, under
 * the same id). With the acknowledgement's own wait it stays inside a send's 30 s claim.
 */
export const SEND_TURN_WAIT_MS = 10_000;

/** The longest a send holds its turn: its write, and its wait for the acknowledgement (10 s), with a margin. */
export const SEND_TURN_HOLD_MS = 15_000;

interface Waiting {
  start(): void;
  timer: TimerHandle | null;
}

/** Turns per channel: at most `limit` sends of a channel run at once; the others wait their turn in order. */
export class SendSlots {
  readonly #timers: Timers;
  readonly #limit: number;
  readonly #running = new Map<string, number>();
  readonly #waiting = new Map<string, Waiting[]>();

  constructor(timers: Timers, limit = SENDS_IN_FLIGHT) {
    this.#timers = timers;
    this.#limit = limit;
  }

  /**
   * Runs `work` in one of the channel's turns, once one is free; throws TransientSendError when none was by `waitMs`.
   * A turn is held `holdMs` at most: a call the library never answers (a connection that died under it) gives its turn
   * up and goes back to the queue, so hung calls never take every turn of the channel.
   */
  async run<T>(channelId: string, waitMs: number, work: () => Promise<T>, holdMs = SEND_TURN_HOLD_MS): Promise<T> {
    await this.#turn(channelId, waitMs);
    let timer: TimerHandle | null = null;
    try {
      return await Promise.race([
        work(),
        new Promise<never>((_, reject) => {
          timer = this.#timers.set(() => reject(new TransientSendError(`WhatsApp did not answer the send within ${holdMs / 1000} s`)), holdMs);
        }),
      ]);
    } finally {
      this.#timers.clear(timer);
      this.#release(channelId);
    }
  }

  /** Sends of the channel running now. */
  running(channelId: string): number {
    return this.#running.get(channelId) ?? 0;
  }

  #turn(channelId: string, waitMs: number): Promise<void> {
    const running = this.running(channelId);
    if (running < this.#limit) {
      this.#running.set(channelId, running + 1);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const queue = this.#waiting.get(channelId) ?? [];
      this.#waiting.set(channelId, queue);
      const waiting: Waiting = {
        // The turn of a send that finished passes straight to this one (the count of those running stays).
        start: () => {
          this.#timers.clear(waiting.timer);
          resolve();
        },
        timer: this.#timers.set(() => {
          queue.splice(queue.indexOf(waiting), 1);
          if (queue.length === 0) this.#waiting.delete(channelId);
          reject(new TransientSendError(`${this.#limit} sends of the channel were waiting for WhatsApp already; this one goes again later`));
        }, waitMs),
      };
      queue.push(waiting);
    });
  }

  #release(channelId: string): void {
    const queue = this.#waiting.get(channelId);
    const next = queue?.shift();
    if (queue?.length === 0) this.#waiting.delete(channelId);
    if (next) return next.start();
    const running = this.running(channelId) - 1;
    if (running > 0) this.#running.set(channelId, running);
    else this.#running.delete(channelId);
  }
}
