/** Socket errors that mean the server is gone or cannot be reached (not that it refused a statement). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server going away or unable to work: connection exceptions (class 08), an administrator's or
 * a crash's shutdown and a server still starting (57P01-57P03), too many connections, a standby after a failover
 * (read-only transaction), a full disk and an I/O error (the embedded database's data directory).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '25006', '53100', '58030']);

/** What the `pg` client and pool say when their connection broke or could not be made in time. */
const CLIENT_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Query read timeout',
];

/** What the embedded database's file system says when its data directory is read-only or full. */
const FILE_CODES = new Set(['EROFS', 'ENOSPC', 'EACCES', 'EPERM', 'EIO', 'EDQUOT']);
const FILE_MESSAGES = ['could not write', 'could not extend', 'could not create', 'could not open', 'could not fsync', 'No space left', 'Read-only file system'];

/**
 * Whether an error says the database cannot be reached or cannot write (so the caller should wait and try
 * again), as opposed to refusing what was asked. Looks through `cause` chains and aggregated errors.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || FILE_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08')) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (CLIENT_MESSAGES.some((m) => message.includes(m)) || FILE_MESSAGES.some((m) => message.includes(m))) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

export interface AvailabilityLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * What the process knows about its database: up, or down since an error said it could not be reached. Once
 * down, a probe asks every `probeMs` until the database answers again; then it is up, and the listeners
 * (the worker loops, the notification listeners) are told to go on at once.
 */
export interface Availability {
  up(): boolean;
  /** How long the database has been down (0 when up). */
  downForMs(): number;
  /** Takes note of an error from the database; answers whether it said the database cannot be reached. */
  report(err: unknown): boolean;
  /** Resolves at once while up, else once the probe finds the database back (or `close`). */
  whenUp(): Promise<void>;
  /** Called each time the database comes back. */
  onRecovered(listener: () => void): void;
  close(): void;
}

export function databaseAvailability(probe: () => Promise<void>, options: { probeMs?: number; log?: () => AvailabilityLog | null } = {}): Availability {
  const probeMs = options.probeMs ?? 1_000;
  let downSince: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let waiters: (() => void)[] = [];
  const listeners: (() => void)[] = [];

  const recovered = () => {
    if (downSince === null) return;
    const outageMs = Math.round(performance.now() - downSince);
    downSince = null;
    clearTimeout(timer);
    options.log?.()?.info({ outageMs }, 'database reachable again; work resumes');
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
    for (const listener of listeners) listener();
  };

  const scheduleProbe = (delayMs = probeMs) => {
    if (closed) return;
    timer = setTimeout(() => {
      probe().then(recovered, () => scheduleProbe());
    }, delayMs);
  };

  return {
    up: () => downSince === null,
    downForMs: () => (downSince === null ? 0 : performance.now() - downSince),
    report(err) {
      if (!isDatabaseUnavailable(err)) return false;
      if (downSince === null && !closed) {
        downSince = performance.now();
        options.log?.()?.warn({ err }, 'database unreachable; requests answer 503 and work waits until it is back');
        // At once: one broken connection (the others fine) is over within a round trip.
        scheduleProbe(0);
      }
      return true;
    },
    whenUp: () => (downSince === null || closed ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    onRecovered(listener) {
      listeners.push(listener);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const resolve of waiters) resolve();
      waiters = [];
    },
  };
}
