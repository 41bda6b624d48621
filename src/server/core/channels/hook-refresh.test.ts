import { describe, expect, it } from 'vitest';
import { logPass, startHookRefresh } from '../../jobs/workers/refresh-hooks.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import type { Transport } from '../../../contract/channels.ts';
import { emptyPass, refreshHooks, type HookRegistrar, type HookRegistrationRepository, type OutdatedChannel, type RegistrationOutcome } from './hook-refresh.ts';

interface StoredChannel {
  id: string;
  transport: Transport;
  active: boolean;
  deleted: boolean;
  messengerId: string | null;
  fingerprint: string | null;
  leaseUntil: number | null;
}

const NOW = 'v1:now';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The repository's contract, in memory: claims in id order past `after`, held until their lease lapses; compare-and-set records. */
function memoryRegistrations(channels: StoredChannel[]): HookRegistrationRepository & { claims: number } {
  const repo = {
    claims: 0,
    async claimOutdated({ transport, fingerprint, after, limit, now, leaseUntil }: Parameters<HookRegistrationRepository['claimOutdated']>[0]) {
      repo.claims++;
      const due = channels
        .filter((c) => c.transport === transport && c.active && !c.deleted && c.fingerprint !== fingerprint)
        .filter((c) => c.leaseUntil === null || c.leaseUntil <= now.getTime())
        .filter((c) => after === null || c.id > after)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, limit);
      for (const c of due) c.leaseUntil = leaseUntil.getTime();
      return due.map((c): OutdatedChannel => ({ id: c.id, credentials: `sealed-${c.id}`, messengerId: c.messengerId, fingerprint: c.fingerprint }));
    },
    async record(read: OutdatedChannel, fingerprint: string) {
      const c = channels.find((x) => x.id === read.id);
      if (c && !c.deleted && c.fingerprint === read.fingerprint && c.messengerId === read.messengerId) {
        c.fingerprint = fingerprint;
        c.leaseUntil = null;
        return 'recorded' as const;
      }
      return !c || c.deleted || c.messengerId !== read.messengerId ? ('left' as const) : ('changed' as const);
    },
  };
  return repo;
}

type Withdrawal = (signal: AbortSignal, attempt: number) => Promise<void>;

/**
 * A platform whose answer per channel the test decides (registered unless told otherwise), and whose withdrawals
 * succeed unless `withdrawals` says otherwise (by channel, given each attempt's signal and number).
 */
function fakeRegistrar(answers: Map<string, () => Promise<RegistrationOutcome>> = new Map(), withdrawals: Map<string, Withdrawal> = new Map()) {
  const refreshed: string[] = [];
  const withdrawn: string[] = [];
  const registrar: HookRegistrar = {
    transport: 'telegram',
    fingerprint: NOW,
    async refresh(channel) {
      refreshed.push(channel.id);
      return (answers.get(channel.id) ?? (async () => 'registered' as const))();
    },
    async withdraw(channel, signal) {
      withdrawn.push(channel.id);
      await withdrawals.get(channel.id)?.(signal, withdrawn.filter((c) => c === channel.id).length);
    },
  };
  return { registrar, refreshed, withdrawn };
}

const channel = (n: number, overrides: Partial<StoredChannel> = {}): StoredChannel => ({
  id: id(n),
  transport: 'telegram',
  active: true,
  deleted: false,
  messengerId: `bot-${n}`,
  fingerprint: null,
  leaseUntil: null,
  ...overrides,
});

const signal = () => new AbortController().signal;

describe('hook refresh pass', () => {
  it('registers every outdated active channel again, in batches, and records the new fingerprint', async () => {
    const channels = [...Array.from({ length: 20 }, (_, i) => channel(i + 1)), channel(21, { fingerprint: NOW }), channel(22, { active: false }), channel(23, { transport: 'maxbot' })];
    const registrations = memoryRegistrations(channels);
    const { registrar, refreshed } = fakeRegistrar();
    const counted: string[] = [];
    const pass = await refreshHooks({ registrations, registrars: [registrar], clock: new ManualClock(), counted: (t, r) => counted.push(`${t}:${r}`) }, signal());
    expect(pass).toEqual({ refreshed: 20, elsewhere: 0, revoked: 0, superseded: 0, failed: 0, withdraw_failed: 0 });
    expect(refreshed).toHaveLength(20);
    expect(refreshed).not.toContain(id(21));
    // Batches of eight, and one claim that finds none left.
    expect(registrations.claims).toBe(4);
    expect(channels.slice(0, 20).every((c) => c.fingerprint === NOW)).toBe(true);
    expect(channels[21]!.fingerprint).toBeNull();
    expect(channels[22]!.fingerprint).toBeNull();
    expect(counted.filter((c) => c === 'telegram:refreshed')).toHaveLength(20);
  });

  it('leaves a failing channel for a later pass, once its claim lapses, and goes on with the rest', async () => {
    const channels = [channel(1), channel(2), channel(3)];
    let failing = true;
    const answers = new Map([[id(2), async (): Promise<RegistrationOutcome> => (failing ? Promise.reject(new Error('Telegram answered 502')) : 'registered')]]);
    const { registrar, refreshed } = fakeRegistrar(answers);
    const clock = new ManualClock();
    const deps = { registrations: memoryRegistrations(channels), registrars: [registrar], clock };
    const first = await refreshHooks(deps, signal());
    expect(first).toMatchObject({ refreshed: 2, failed: 1, lastError: `${id(2)}: Telegram answered 502` });
    expect(channels[1]!.fingerprint).toBeNull();

    failing = false;
    // Still held by the claim: another process's pass (or this one's next) passes it by.
    expect(await refreshHooks(deps, signal())).toMatchObject({ refreshed: 0, failed: 0 });
    clock.advance(5 * 60_000);
    expect(await refreshHooks(deps, signal())).toMatchObject({ refreshed: 1, failed: 0 });
    expect(channels[1]!.fingerprint).toBe(NOW);
    expect(refreshed).toEqual([id(1), id(2), id(3), id(2)]);
  });

  it('stores a bot found elsewhere as checked, so that later passes do not ask its platform again; nothing for a revoked token', async () => {
    const channels = [channel(1), channel(2)];
    const answers = new Map([
      [id(1), async (): Promise<RegistrationOutcome> => 'elsewhere'],
      [id(2), async (): Promise<RegistrationOutcome> => 'revoked'],
    ]);
    const { registrar, refreshed } = fakeRegistrar(answers);
    const clock = new ManualClock();
    const deps = { registrations: memoryRegistrations(channels), registrars: [registrar], clock };
    expect(await refreshHooks(deps, signal())).toMatchObject({ refreshed: 0, elsewhere: 1, revoked: 1 });
    expect(channels.map((c) => c.fingerprint)).toEqual([NOW, null]);
    expect(channels[0]!.leaseUntil).toBeNull();

    // Past the claim: the revoked one (still active here) is asked again, the one found elsewhere is not.
    clock.advance(5 * 60_000);
    expect(await refreshHooks(deps, signal())).toMatchObject({ elsewhere: 0, revoked: 1 });
    expect(refreshed).toEqual([id(1), id(2), id(2)]);
  });

  it('stores no bot found elsewhere over a change made meanwhile', async () => {
    const channels = [channel(1)];
    const answers = new Map([[id(1), async (): Promise<RegistrationOutcome> => ((channels[0]!.messengerId = 'another-bot'), 'elsewhere')]]);
    const { registrar, withdrawn } = fakeRegistrar(answers);
    expect(await refreshHooks({ registrations: memoryRegistrations(channels), registrars: [registrar], clock: new ManualClock() }, signal())).toMatchObject({ elsewhere: 1 });
    expect(channels[0]!.fingerprint).toBeNull();
    // Nothing was registered: nothing to take back.
    expect(withdrawn).toEqual([]);
  });

  it('stores nothing over a change made meanwhile, and takes back a registration made for a bot the channel left', async () => {
    const channels = [channel(1), channel(2), channel(3)];
    const answers = new Map([
      // A reconnect with the same bot recorded its registration meanwhile.
      [id(1), async (): Promise<RegistrationOutcome> => ((channels[0]!.fingerprint = NOW), 'registered')],
      // A reconnect with another bot.
      [id(2), async (): Promise<RegistrationOutcome> => ((channels[1]!.messengerId = 'another-bot'), 'registered')],
      // The channel was deleted.
      [id(3), async (): Promise<RegistrationOutcome> => ((channels[2]!.deleted = true), 'registered')],
    ]);
    const { registrar, withdrawn } = fakeRegistrar(answers);
    const pass = await refreshHooks({ registrations: memoryRegistrations(channels), registrars: [registrar], clock: new ManualClock() }, signal());
    expect(pass).toMatchObject({ refreshed: 0, superseded: 3 });
    expect(withdrawn).toEqual([id(2), id(3)]);
    expect(channels[1]!.fingerprint).toBeNull();
  });

  it('tries a failed withdrawal again at once, and counts a channel whose former bot could not be withdrawn, going on with the rest', async () => {
    const channels = [channel(1), channel(2), channel(3)];
    const answers = new Map([
      [id(1), async (): Promise<RegistrationOutcome> => ((channels[0]!.deleted = true), 'registered')],
      [id(2), async (): Promise<RegistrationOutcome> => ((channels[1]!.messengerId = 'another-bot'), 'registered')],
    ]);
    const withdrawals = new Map<string, Withdrawal>([
      // Fails once, then goes through.
      [id(1), async (_signal, attempt) => (attempt === 1 ? Promise.reject(new Error('Telegram answered 502')) : undefined)],
      // Fails every time.
      [id(2), async (_signal, attempt) => Promise.reject(new Error(`Telegram answered 502, try ${attempt}`))],
    ]);
    const { registrar, withdrawn } = fakeRegistrar(answers, withdrawals);
    const counted: string[] = [];
    const pass = await refreshHooks({ registrations: memoryRegistrations(channels), registrars: [registrar], clock: new ManualClock(), counted: (_t, r) => counted.push(r) }, signal());
    expect(pass).toMatchObject({ refreshed: 1, superseded: 1, withdraw_failed: 1, failed: 0, withdrawErrors: [`${id(2)}: Telegram answered 502, try 3`] });
    expect(withdrawn).toEqual([id(1), id(2), id(1), id(2), id(2)]);
    expect(counted.sort()).toEqual(['refreshed', 'superseded', 'withdraw_failed']);
    expect(channels[2]!.fingerprint).toBe(NOW);
  });

  it('withdraws under deadlines of its own: a stop does not cut it short, and an attempt that hangs ends at its deadline', async () => {
    const channels = [channel(1)];
    const stop = new AbortController();
    const deadlines: AbortController[] = [];
    const answers = new Map([[id(1), async (): Promise<RegistrationOutcome> => ((channels[0]!.deleted = true), stop.abort(), 'registered')]]);
    const signals: AbortSignal[] = [];
    const withdrawals = new Map<string, Withdrawal>([
      [
        id(1),
        (signal, attempt) => {
          signals.push(signal);
          if (attempt > 1) return Promise.resolve();
          // A platform that never answers: only the attempt's deadline ends it.
          const hanging = new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('deadline passed'))));
          deadlines[0]!.abort();
          return hanging;
        },
      ],
    ]);
    const { registrar, withdrawn } = fakeRegistrar(answers, withdrawals);
    const withdrawDeadline = () => deadlines[deadlines.push(new AbortController()) - 1]!.signal;
    const pass = await refreshHooks({ registrations: memoryRegistrations(channels), registrars: [registrar], clock: new ManualClock(), withdrawDeadline }, stop.signal);
    expect(pass).toMatchObject({ superseded: 1, withdraw_failed: 0 });
    expect(withdrawn).toEqual([id(1), id(1)]);
    // Each attempt under a deadline of its own, which the stop (aborted before the withdrawal began) is no part of.
    expect(signals).toHaveLength(2);
    signals.forEach((given, attempt) => expect(given).toBe(deadlines[attempt]!.signal));
    expect(signals[1]!.aborted).toBe(false);
  });

  it('logs a pass with a former bot left posting at error level', () => {
    const lines: string[] = [];
    const log = { info: (_o: object, m: string) => lines.push(`info ${m}`), warn: (_o: object, m: string) => lines.push(`warn ${m}`), error: (_o: object, m: string) => lines.push(`error ${m}`) };
    logPass(log, { ...emptyPass(), failed: 1, withdraw_failed: 1 });
    logPass(log, { ...emptyPass(), failed: 1 });
    logPass(log, emptyPass());
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['error', 'warn', 'info']);
  });

  it('ends between batches once stopped', async () => {
    const channels = Array.from({ length: 20 }, (_, i) => channel(i + 1));
    const stop = new AbortController();
    const answers = new Map([[id(1), async (): Promise<RegistrationOutcome> => (stop.abort(), 'registered')]]);
    const { registrar, refreshed } = fakeRegistrar(answers);
    await refreshHooks({ registrations: memoryRegistrations(channels), registrars: [registrar], clock: new ManualClock() }, stop.signal);
    expect(refreshed).toHaveLength(8);
  });
});

describe('hook refresh runner', () => {
  it('runs a pass at start, which refresh() joins, and stops without waiting for a call under way', async () => {
    const channels = [channel(1)];
    const passes: number[] = [];
    let called!: () => void;
    const calling = new Promise<void>((resolve) => (called = resolve));
    const registrar: HookRegistrar = {
      transport: 'telegram',
      fingerprint: NOW,
      // A platform that never answers: only the stop ends the call.
      refresh: (_channel, signal) => {
        called();
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
      },
      withdraw: async () => {},
    };
    const refresher = startHookRefresh({ registrations: memoryRegistrations(channels), registrars: [registrar], clock: new ManualClock() }, 3_600_000, (p) => passes.push(p.failed), () => {});
    await calling;
    const joined = refresher.refresh();
    await refresher.stop();
    expect(await joined).toMatchObject({ failed: 1, lastError: `${id(1)}: stopped` });
    expect(passes).toEqual([1]);
    expect(channels[0]!.fingerprint).toBeNull();
    expect(await refresher.refresh()).toMatchObject({ refreshed: 0, failed: 0 });
  });
});
