import type { SessionLeases } from './ports.ts';

export interface SessionLogoutDeps {
  leases: Pick<SessionLeases, 'requestLogout' | 'holder'>;
  /** Makes this process's runner look at once (the other processes are woken by the request itself). */
  wake(): void;
  /** How long the caller waits for the logout at most: past it, the session's keys may go without it. */
  waitMs: number;
  /** How often the session's row is looked at meanwhile. */
  pollMs?: number;
}

export type SessionLogoutOutcome = 'logged_out' | 'no_session' | 'timed_out';

/**
 * Logs a session's linked device out on the messenger, whichever process takes the call (a channel deleted or linked
 * anew): the logout is asked for durably on the session's row, and the process holding the session does it at its
 * next look (every process is woken), or, when nobody holds it (its owner died, or it was never taken), the next
 * process to take it does it with the stored keys. The holder ends the session once the messenger has it (or after a
 * bounded attempt); the caller waits for that up to `waitMs`, so the keys are never wiped before the logout was tried.
 */
export async function logOutSession(deps: SessionLogoutDeps, channelId: string): Promise<SessionLogoutOutcome> {
  if (!(await deps.leases.requestLogout(channelId))) return 'no_session';
  deps.wake();
  const until = performance.now() + deps.waitMs;
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 100));
    if (!(await deps.leases.holder(channelId))) return 'logged_out';
  }
  return 'timed_out';
}
