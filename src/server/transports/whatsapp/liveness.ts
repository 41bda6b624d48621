/**
 * How a personal WhatsApp session is kept up: the watchdog's bounds (a connection that never opens, one that went
 * silent, a session shown unreachable) and the backoff between reconnects. The session driver (session.ts) applies them.
 */

/** How a lost connection is tried again: from `baseMs`, doubling, at most `maxMs`, each wait drawn in its upper half. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

export const defaultBackoff: Backoff = { baseMs: 1_000, maxMs: 60_000 };

/**
 * The session's watchdog. `openMs`: a connection attempt that neither opened nor showed a QR by then is given up
 * (a WebSocket upgrade answered with an error status leaves the library waiting for good). `silenceMs`: an open
 * connection whose writes WhatsApp answered nothing for that long (the library's keepalive goes every 10 s) is
 * dead. `unreachableMs`: a session not heard from for that long while it is not open shows on its channel (`init`,
 * no reason) until it opens again. The threshold runs from the last time the connection was heard from, not from its
 * close: a connection given up for its silence (by the watchdog or the library's own keepalive) shows at once, so a dead session shows `active`
 * for `max(silenceMs, unreachableMs)` at most, while a reset reconnected within `unreachableMs` never shows.
 */
export interface Liveness {
  openMs: number;
  silenceMs: number;
  unreachableMs: number;
}

export const defaultLiveness: Liveness = { openMs: 30_000, silenceMs: 20_000, unreachableMs: 15_000 };

/**
 * How long a dead session may show `active` at most: the watchdog's 20 s of silence, and the rest for saving the
 * channel's new status on a loaded database (0.5 s was measured on a busy two-core machine).
 */
export const DEAD_ACTIVE_BOUND_MS = 25_000;

/** The wait before reconnect attempt `attempt` (0-based): exponential, capped, with jitter in its upper half. */
export const reconnectDelayMs = (backoff: Backoff, attempt: number, random: () => number): number => {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
};
