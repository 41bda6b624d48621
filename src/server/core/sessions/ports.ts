/**
 * Long-lived connections to a messenger (a personal account's session): one per channel, run by exactly one gateway
 * process at a time. The process holds a lease on the session in the database, renews it while it runs, lets it go
 * when it stops, and loses it when it dies (another process takes it over once the lease lapses). The session's
 * state (the library's keys) is kept in the database, sealed, so that any process can take it over.
 */

/** A session this process holds. `generation` grows with every new owner: the fence on writes of its state. */
export interface HeldSession {
  channelId: string;
  transport: string;
  generation: number;
  /**
   * A logout was asked for (the channel was deleted or is linked anew, through any process): the holder logs the
   * linked device out on the messenger, then ends the session, rather than running it.
   */
  logout: boolean;
}

/** Who holds a session now. */
export interface SessionHolder {
  owner: string | null;
  leaseUntil: Date | null;
  generation: number;
}

/**
 * The leases, in the database. Times are the database's own (every process compares against one clock), so lease
 * lengths are given as durations.
 */
export interface SessionLeases {
  /** The channel has a session to run from now on (idempotent); nobody holds it until a runner acquires it. */
  register(channelId: string, transport: string): Promise<void>;
  /** The session is over (the channel deleted, the account logged out): its lease and state go. */
  remove(channelId: string): Promise<void>;
  /**
   * Takes up to `limit` sessions of these transports that no live lease holds (never held, let go, or lapsed) for
   * `owner`, for `leaseMs`. Rows are locked as they are taken, so of processes acquiring at once each session goes
   * to one of them; each taken session's generation grows. Only sessions of channels that exist are taken, and
   * those whose logout was asked for (their channel may be gone).
   */
  acquire(input: { owner: string; transports: readonly string[]; leaseMs: number; limit: number }): Promise<HeldSession[]>;
  /**
   * Extends every lease `owner` still holds (a lapsed one too, if nobody took it meanwhile) and answers those
   * sessions; any other it ran was taken over or removed.
   */
  renew(input: { owner: string; leaseMs: number }): Promise<HeldSession[]>;
  /** Lets go of these sessions of `owner` (their connections closed): another process may take them at once. */
  release(owner: string, channelIds: readonly string[]): Promise<void>;
  holder(channelId: string): Promise<SessionHolder | undefined>;
  /**
   * Asks whichever process holds (or next takes) the session to log its device out and end it; every process's
   * runner is woken. False when no session is registered for the channel.
   */
  requestLogout(channelId: string): Promise<boolean>;
  /** Lets go of every lease, whoever holds it: only where one process uses the database (the embedded one) at start. */
  releaseAll(): Promise<void>;
}

/**
 * What the transports holding sessions are given: the leases (a channel registers its session on connecting), what
 * makes this process's runner look at once, and the logout of a session's device, whichever process runs it
 * (`logOutSession`), awaited before a deleted or reinitialized channel's session goes.
 */
export interface SessionHost {
  leases: SessionLeases;
  wake(): void;
  logout(channelId: string): Promise<unknown>;
}

/** A session's state as stored: sealed values by key. Writes are fenced by the lease that makes them. */
export interface SessionStateRepository {
  /** The values stored under these keys (absent ones are left out). */
  read(channelId: string, keys: readonly string[]): Promise<Map<string, string>>;
  /**
   * Stores (a string) or deletes (null) values, only while `lease` is still the session's current one: false, and
   * nothing written, when another process took the session over or it was removed.
   */
  write(lease: SessionFence, entries: readonly { key: string; value: string | null }[]): Promise<boolean>;
  /** Deletes every value of the session (a logout), fenced the same way. */
  clear(lease: SessionFence): Promise<boolean>;
  /** Ends the session (its lease and state go) if `lease` is still its current one: a later registration stays. */
  end(lease: SessionFence): Promise<void>;
}

/** The lease a write is made under: refused once the session's row names another owner or generation. */
export interface SessionFence {
  channelId: string;
  owner: string;
  generation: number;
}

/**
 * The fence checked inside a store transaction: whether `fence` is still the session's current lease. The session's
 * row is held (shared) until the transaction ends, so a takeover waits for a fenced write under way, and a write after
 * a takeover is refused.
 */
export interface SessionFenceCheck {
  holds(fence: SessionFence): Promise<boolean>;
}

/** Thrown by a session's state when this process no longer holds the session: the connection must stop. */
export class SessionLeaseLost extends Error {
  readonly channelId: string;

  constructor(channelId: string) {
    super(`session ${channelId} is no longer held by this process`);
    this.channelId = channelId;
    this.name = 'SessionLeaseLost';
  }
}

/** What a running session reads and writes its state through: JSON values by key, sealed at rest. */
export interface SessionState {
  get(keys: readonly string[]): Promise<Record<string, unknown>>;
  /** `null` deletes the key. Throws SessionLeaseLost (and writes nothing) once the session is held elsewhere. */
  set(entries: Record<string, unknown>): Promise<void>;
  /** Forgets everything (logged out): the next start begins as a new session. */
  clear(): Promise<void>;
  /** The session is over (idle, logged out, opened elsewhere): nobody runs it until the channel registers it again. */
  end(): Promise<void>;
}

/** What a transport's driver is given for each session this process starts. */
export interface SessionContext {
  channelId: string;
  transport: string;
  /** Sealed, fenced by `fence`: a write once the session is held elsewhere throws SessionLeaseLost (and stops it). */
  state: SessionState;
  /** The lease the session runs under: every write of the channel's status or messages carries it. */
  fence: SessionFence;
  /**
   * A write was refused because the lease is stale (SessionLeaseLost): the runner stops the session at once (its
   * `signal` aborts and `stop` is called). The session steps and the fenced state call it themselves.
   */
  lost(): void;
  /** Aborted when the process no longer holds the session: stop at once, write nothing more. */
  signal: AbortSignal;
}

/** A session's channel writes are made as: its fence, and what to call when one is refused as stale. */
export type FencedSession = Pick<SessionContext, 'fence' | 'lost'>;

/** A connection the driver opened for a session. */
export interface RunningSession {
  /**
   * Closes the connection without ending the session on the messenger's side (no logout): the process is handing
   * it over, or lost it. The stored state stays for the next owner.
   */
  stop(): Promise<void>;
  /**
   * Logs the linked device out on the messenger (the channel is deleted or linked anew), then closes the connection,
   * reporting nothing of that close to the channel. The caller bounds how long it waits.
   */
  logout(): Promise<void>;
}

/** The driver-side of a long-lived transport: how it opens a session's connection. */
export interface SessionDriver {
  /** The transport whose channels' sessions it runs (`whatsapp`, `tgapi`). */
  transport: string;
  /**
   * Opens the session's connection with its stored state and keeps it up (its own reconnects) until `stop` or
   * `context.signal`. Resolves once started; connecting goes on in the background.
   */
  start(context: SessionContext): Promise<RunningSession>;
  /**
   * Logs out the device of a session that runs nowhere (its owner died, or nobody took it yet): a connection opened
   * with the stored state only for that, then closed; nothing is reported to the channel. A session never linked has
   * nothing to log out. The caller bounds how long it waits.
   */
  logout(context: SessionContext): Promise<void>;
}
