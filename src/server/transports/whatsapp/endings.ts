import type { SessionEnd } from '../../core/sessions/session-channel.ts';
import { WaDisconnect } from './wa-socket.ts';

/** How a session ends for good: the channel's step, and whether its keys go with it. */
export interface WaEnd {
  why: SessionEnd;
  /** Only a logout the account made (or codes that ran out before any scan) wipes the keys. */
  forget: boolean;
}

/**
 * How many times in a row (no open connection between them) WhatsApp must close the connection with the same
 * specific refusal before the channel is disabled for it. A refusal WhatsApp sends once (the connection replaced by
 * this gateway's own new owner, a session WhatsApp could not read this time) is reconnected with backoff; with the
 * backoff's waits five in a row take 15 s at least.
 */
export const REFUSALS_BEFORE_DISABLE = 5;

/** Refusals that disable the channel once sustained, with the step that names them. */
const SUSTAINED: Readonly<Partial<Record<number, WaEnd>>> = {
  // The account is in use by another client than this session (a second linked gateway with the same keys).
  [WaDisconnect.connectionReplaced]: { why: 'opened_elsewhere', forget: false },
  // WhatsApp refuses the account (banned, or its device no longer allowed): it is not authorized.
  [WaDisconnect.forbidden]: { why: 'logged_out', forget: false },
  // The linked device no longer matches the account's devices: only a new scan links it again.
  [WaDisconnect.multideviceMismatch]: { why: 'logged_out', forget: false },
};

/**
 * Tells a session's closes apart: what ends it for good (a logout on the phone at once; a specific refusal once
 * sustained) from what is reconnected. Anything else (a lost network, a stream error of a kind not known, a failure
 * without a reason, which the library reports as 500 "bad session", WhatsApp's 5xx) is a reason to reconnect, never
 * to wipe the keys.
 */
export class CloseJudge {
  #code: number | undefined;
  #count = 0;

  /** The connection opened: refusals count again from zero. */
  opened(): void {
    this.#code = undefined;
    this.#count = 0;
  }

  /** A close with `code`, before (`linked` false, with a QR shown) or after the account was linked. */
  closed(code: number | undefined, linked: boolean): WaEnd | null {
    this.#count = code === this.#code ? this.#count + 1 : 1;
    this.#code = code;
    if (code === WaDisconnect.loggedOut) return { why: 'logged_out', forget: true };
    // Before a scan, the library closes with this once WhatsApp's codes ran out.
    if (code === WaDisconnect.timedOut && !linked) return { why: 'qr_exhausted', forget: true };
    const sustained = code === undefined ? undefined : SUSTAINED[code];
    return sustained && this.#count >= REFUSALS_BEFORE_DISABLE ? sustained : null;
  }

  /** How many closes in a row had the last code. */
  get repeated(): number {
    return this.#count;
  }
}
