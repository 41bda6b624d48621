import type { CredentialsCipher } from '../channels/ports.ts';
import type { Clock } from '../ports.ts';
import type { HeldSession, RunningSession, SessionContext, SessionDriver, SessionLeases, SessionStateRepository } from './ports.ts';
import { sealedSessionState } from './sealed-state.ts';

/**
 * How long a lease lasts unrenewed by default (SESSION_LEASE_SECONDS sets it): a dead process's sessions are taken
 * over this long after its last renewal.
 */
export const SESSION_LEASE_MS = 20_000;
/** How often a runner renews its leases and looks for sessions nobody runs. */
export const SESSION_RENEW_EVERY_MS = 5_000;
/** How long a logout asked of a session may take on the messenger before its keys go anyway. */
export const SESSION_LOGOUT_TIMEOUT_MS = 10_000;

export interface SessionRunnerOptions {
  leases: SessionLeases;
  states: SessionStateRepository;
  cipher: CredentialsCipher;
  drivers: readonly SessionDriver[];
  /** This process's mark on its leases (unique per process run). */
  owner: string;
  clock: Clock;
  leaseMs?: number;
  renewEveryMs?: number;
  /** The most sessions this process runs at once. */
  capacity?: number;
  logoutTimeoutMs?: number;
  onError(err: unknown, message: string): void;
}

export interface SessionRunner {
  readonly owner: string;
  /** One round: renew the leases held, stop what was lost, take sessions nobody runs, start what is held. */
  tick(): Promise<void>;
  /** The sessions whose connections run here. */
  running(): string[];
  /** Closes every connection and lets go of its lease, so that another process takes it over at once. */
  stop(): Promise<void>;
}

interface Started {
  session: RunningSession;
  abort: AbortController;
}

/** Settles when `work` does, or after `ms` (then `work` goes on unwaited). */
const bounded = (work: Promise<void>, ms: number): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/**
 * Runs the sessions this process holds. Each tick renews the leases, then makes what runs here match what is held:
 * a session held elsewhere now (taken over, removed) is stopped; a held one not running is started; one whose logout
 * was asked for is logged out (its connection here, or one opened for that) and ended. A session whose write was
 * refused as stale is stopped at once, without waiting for the next tick. A process that cannot renew stops its
 * connections itself before its leases can lapse, so that another process taking them over never runs one beside it.
 * Pure of timers but the logout's bound: `startSessionRunner` ticks it.
 */
export function sessionRunner(options: SessionRunnerOptions): SessionRunner {
  const leaseMs = options.leaseMs ?? SESSION_LEASE_MS;
  const renewEveryMs = options.renewEveryMs ?? SESSION_RENEW_EVERY_MS;
  const capacity = options.capacity ?? 500;
  const logoutTimeoutMs = options.logoutTimeoutMs ?? SESSION_LOGOUT_TIMEOUT_MS;
  /** Logouts under way, by channel: the session is neither started nor logged out again meanwhile. */
  const loggingOut = new Map<string, Promise<void>>();
  const drivers = new Map(options.drivers.map((d) => [d.transport, d]));
  const transports = [...drivers.keys()];
  const started = new Map<string, Started>();
  /** Sessions whose start failed: not tried again before then. */
  const retryAt = new Map<string, { at: number; delayMs: number }>();
  /** When the leases were last renewed (the clock's time): past this plus the lease, they may be another's. */
  let renewedAt = options.clock.now().getTime();
  let stopping = false;
  let chain: Promise<void> = Promise.resolve();

  const stopOne = async (channelId: string) => {
    const one = started.get(channelId);
    if (!one) return;
    started.delete(channelId);
    one.abort.abort();
    await one.session.stop().catch((err: unknown) => options.onError(err, `stopping session ${channelId} failed`));
  };

  /** What a driver is given for a held session: its fenced state, and `lost` stopping it once a write is refused. */
  const contextOf = (held: HeldSession, abort: AbortController): SessionContext => {
    const fence = { channelId: held.channelId, owner: options.owner, generation: held.generation };
    const lost = () => {
      if (abort.signal.aborted) return;
      abort.abort();
      if (started.get(held.channelId)?.abort === abort) void stopOne(held.channelId);
    };
    return { channelId: held.channelId, transport: held.transport, state: sealedSessionState(options.states, options.cipher, fence, lost), fence, lost, signal: abort.signal };
  };

  /**
   * The device is logged out on the messenger (through the connection running here, or one opened with the stored
   * state for that alone), at most `logoutTimeoutMs`; then the session ends, its keys with it.
   */
  const logOutOne = (held: HeldSession) => {
    const driver = drivers.get(held.transport);
    if (!driver || loggingOut.has(held.channelId)) return;
    const running = started.get(held.channelId);
    started.delete(held.channelId);
    const abort = running?.abort ?? new AbortController();
    const context = contextOf(held, abort);
    const work = (async () => {
      await bounded(running ? running.session.logout() : driver.logout(context), logoutTimeoutMs).catch((err: unknown) =>
        options.onError(err, `logging session ${held.channelId} out failed`),
      );
      abort.abort();
      if (running) await running.session.stop().catch(() => {});
      await context.state.end();
    })()
      .catch((err: unknown) => options.onError(err, `ending session ${held.channelId} failed`))
      .finally(() => loggingOut.delete(held.channelId));
    loggingOut.set(held.channelId, work);
  };

  const startOne = async (held: HeldSession) => {
    const driver = drivers.get(held.transport);
    if (!driver || started.has(held.channelId) || loggingOut.has(held.channelId)) return;
    if (held.logout) return logOutOne(held);
    const now = options.clock.now().getTime();
    const retry = retryAt.get(held.channelId);
    if (retry && retry.at > now) return;
    const abort = new AbortController();
    try {
      const session = await driver.start(contextOf(held, abort));
      if (abort.signal.aborted) {
        // A write was refused while it started: another process holds it now.
        await session.stop().catch(() => {});
        return;
      }
      started.set(held.channelId, { session, abort });
      retryAt.delete(held.channelId);
    } catch (err) {
      abort.abort();
      const delayMs = Math.min((retry?.delayMs ?? renewEveryMs / 2) * 2, 10 * 60_000);
      retryAt.set(held.channelId, { at: now + delayMs, delayMs });
      options.onError(err, `starting session ${held.channelId} failed`);
    }
  };

  const round = async () => {
    let held: HeldSession[];
    try {
      held = await options.leases.renew({ owner: options.owner, leaseMs });
      renewedAt = options.clock.now().getTime();
    } catch (err) {
      options.onError(err, 'renewing session leases failed');
      // Unrenewed, the leases lapse at `renewedAt + leaseMs`: the connections stop a renewal's time before that.
      if (options.clock.now().getTime() >= renewedAt + leaseMs - renewEveryMs) await Promise.all([...started.keys()].map(stopOne));
      return;
    }
    const heldIds = new Set(held.map((h) => h.channelId));
    await Promise.all([...started.keys()].filter((id) => !heldIds.has(id)).map(stopOne));
    for (const one of held) if (one.logout) logOutOne(one);
    if (stopping) return;
    const room = capacity - held.length;
    if (room > 0 && transports.length > 0) {
      try {
        held.push(...(await options.leases.acquire({ owner: options.owner, transports, leaseMs, limit: room })));
      } catch (err) {
        options.onError(err, 'acquiring sessions failed');
      }
    }
    for (const id of retryAt.keys()) if (!held.some((h) => h.channelId === id)) retryAt.delete(id);
    await Promise.all(held.map(startOne));
  };

  return {
    owner: options.owner,
    tick() {
      // One round at a time: a tick asked for during one runs after it.
      const next = chain.then(() => (stopping ? undefined : round()));
      chain = next.catch(() => {});
      return next;
    },
    running: () => [...started.keys()],
    async stop() {
      stopping = true;
      await chain;
      const ids = [...started.keys()];
      await Promise.all(ids.map(stopOne));
      await Promise.all(loggingOut.values());
      if (ids.length > 0) await options.leases.release(options.owner, ids).catch((err: unknown) => options.onError(err, 'letting sessions go failed'));
    },
  };
}

export interface SessionLoop extends SessionRunner {
  /** Looks now (a session was registered in this process, or another process let some go). */
  wake(): void;
}

/** A runner ticking every `renewEveryMs`, and at once when woken. */
export function startSessionRunner(options: SessionRunnerOptions): SessionLoop {
  const runner = sessionRunner(options);
  const every = options.renewEveryMs ?? SESSION_RENEW_EVERY_MS;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void runner.tick().finally(() => schedule(every));
    }, ms);
    timer.unref();
  };
  schedule(0);
  return {
    ...runner,
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await runner.stop();
    },
  };
}
