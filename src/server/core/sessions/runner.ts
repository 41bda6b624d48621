import type { CredentialsCipher } from '../channels/ports.ts';
import type { Clock } from '../ports.ts';
import type { HeldSession, RunningSession, SessionDriver, SessionLeases, SessionStateRepository } from './ports.ts';
import { sealedSessionState } from './sealed-state.ts';

/** How long a lease lasts unrenewed: a dead process's sessions are taken over this long after its last renewal. */
export const SESSION_LEASE_MS = 20_000;
/** How often a runner renews its leases and looks for sessions nobody runs. */
export const SESSION_RENEW_EVERY_MS = 5_000;

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

/**
 * Runs the sessions this process holds. Each tick renews the leases, then makes what runs here match what is held:
 * a session held elsewhere now (taken over, removed) is stopped; a held one not running is started. A process that
 * cannot renew stops its connections itself before its leases can lapse, so that another process taking them over
 * never runs one beside it. Pure of timers: `startSessionRunner` ticks it.
 */
export function sessionRunner(options: SessionRunnerOptions): SessionRunner {
  const leaseMs = options.leaseMs ?? SESSION_LEASE_MS;
  const renewEveryMs = options.renewEveryMs ?? SESSION_RENEW_EVERY_MS;
  const capacity = options.capacity ?? 500;
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

  const startOne = async (held: HeldSession) => {
    const driver = drivers.get(held.transport);
    if (!driver || started.has(held.channelId)) return;
    const now = options.clock.now().getTime();
    const retry = retryAt.get(held.channelId);
    if (retry && retry.at > now) return;
    const abort = new AbortController();
    const fence = { channelId: held.channelId, owner: options.owner, generation: held.generation };
    try {
      const session = await driver.start({
        channelId: held.channelId,
        transport: held.transport,
        state: sealedSessionState(options.states, options.cipher, fence),
        signal: abort.signal,
      });
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
