import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KnownChatEffect, MessageRecord } from '../core/messages/ports.ts';
import { SessionLeaseLost, type SessionContext, type SessionDriver, type SessionLeases } from '../core/sessions/ports.ts';
import { sessionRunner, type SessionRunner } from '../core/sessions/runner.ts';
import { sessionEnded, sessionLinked, sessionQrIssued, withSessionFence, type SessionChannelDeps } from '../core/sessions/session-channel.ts';
import { eventually } from '../testing/eventually.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { credentialsCipher } from './credentials-cipher.ts';
import { migrateToLatest, openDatabase, type Database } from './database.ts';
import { listen, SESSIONS_RELEASED } from './notifications.ts';
import { sendQueueRepository } from './repositories/send-queue.ts';
import { sessionLeaseRepository, sessionStateRepository } from './repositories/sessions.ts';
import { createStore } from './store.ts';

const at = new Date(Date.UTC(2030, 0, 1, 12));
const cipher = credentialsCipher('k'.repeat(40));

/** A transport's session driver that opens nothing: it records which sessions run where, and keeps their contexts. */
function recordingDriver(transport = 'whatsapp') {
  const open = new Map<string, SessionContext>();
  const starts: string[] = [];
  const loggedOut: string[] = [];
  const driver: SessionDriver = {
    transport,
    async start(context) {
      starts.push(context.channelId);
      open.set(context.channelId, context);
      return { stop: async () => void open.delete(context.channelId), logout: async () => void loggedOut.push(context.channelId) };
    },
    async logout(context) {
      loggedOut.push(context.channelId);
    },
  };
  return { driver, open, starts, loggedOut };
}

describe(`session leases (${databaseKind()})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  let leases: SessionLeases;
  const accountId = randomUUID();

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
    await migrateToLatest(database.db);
    leases = sessionLeaseRepository(database.db);
    await database.db.insertInto('accounts').values({ id: accountId, name: 'A', created_at: at }).execute();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('messages').execute();
    await database.db.deleteFrom('chats').execute();
    await database.db.deleteFrom('sessions').execute();
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  async function newSession(transport = 'whatsapp'): Promise<string> {
    const id = randomUUID();
    await database.db
      .insertInto('channels')
      .values({ id, account_id: accountId, transport, status: 'active', reason: null, phone: null, username: null, messenger_id: null, name: null, auth_url: null, tier: null, paid: true, credentials: null, qr: null, pairing: null, created_at: at, updated_at: at })
      .execute();
    await leases.register(id, transport);
    return id;
  }

  const runner = (driver: SessionDriver, options: { leaseMs?: number; clock?: ManualClock; leases?: SessionLeases; capacity?: number } = {}): SessionRunner =>
    sessionRunner({
      leases: options.leases ?? leases,
      states: sessionStateRepository(database.db),
      cipher,
      drivers: [driver],
      owner: randomUUID(),
      clock: options.clock ?? new ManualClock(),
      leaseMs: options.leaseMs ?? 20_000,
      renewEveryMs: (options.leaseMs ?? 20_000) / 4,
      ...(options.capacity ? { capacity: options.capacity } : {}),
      onError: () => {},
    });

  it('runs a session in one process only, hands it over on stop, and the next owner reads its sealed state', async () => {
    const id = await newSession();
    const a = recordingDriver();
    const b = recordingDriver();
    const first = runner(a.driver);
    const second = runner(b.driver);
    await first.tick();
    await second.tick();
    expect(first.running()).toEqual([id]);
    expect(second.running()).toEqual([]);
    expect((await leases.holder(id))?.owner).toBe(first.owner);

    await a.open.get(id)!.state.set({ creds: { me: '79990001122@s.whatsapp.net' }, 'pre-key-1': { n: 1 } });
    const raw = await database.db.selectFrom('session_state').select(['key', 'value']).where('channel_id', '=', id).execute();
    expect(raw.map((r) => r.key).sort()).toEqual(['creds', 'pre-key-1']);
    expect(raw.map((r) => r.value).join()).not.toContain('79990001122');

    // The other processes hear of it (on PostgreSQL, where there are others), and look at once.
    let told = 0;
    const listening = await listen(database, SESSIONS_RELEASED, () => told++, () => {});
    told = 0; // a listener looks once as it starts listening
    try {
      await first.stop();
      expect(a.open.size).toBe(0);
      expect((await leases.holder(id))?.owner).toBeNull();
      if (databaseKind() === 'postgres') await eventually(async () => (told > 0 ? true : undefined));
    } finally {
      await listening.close();
    }
    await second.tick();
    expect(second.running()).toEqual([id]);
    expect(await b.open.get(id)!.state.get(['creds', 'pre-key-1', 'absent'])).toEqual({ creds: { me: '79990001122@s.whatsapp.net' }, 'pre-key-1': { n: 1 } });
    await b.open.get(id)!.state.set({ 'pre-key-1': null });
    expect(await b.open.get(id)!.state.get(['pre-key-1'])).toEqual({});
    await second.stop();
  });

  it('takes a dead process’s session over once its lease lapses, and the old owner can neither write nor keep running it', async () => {
    const id = await newSession();
    const a = recordingDriver();
    const b = recordingDriver();
    const dead = runner(a.driver, { leaseMs: 1_000 });
    const survivor = runner(b.driver, { leaseMs: 1_000 });
    await dead.tick();
    const orphan = a.open.get(id)!;
    const lastRenewal = Date.now();
    // The owner stops renewing (it died); the other process looks until it may take the session.
    const tookOverAfterMs = await eventually(async () => {
      await survivor.tick();
      return survivor.running().includes(id) ? Date.now() - lastRenewal : undefined;
    });
    expect(tookOverAfterMs).toBeGreaterThanOrEqual(900);
    expect(tookOverAfterMs).toBeLessThan(5_000);
    const firstGeneration = (await database.db.selectFrom('sessions').select('generation').where('channel_id', '=', id).executeTakeFirstOrThrow()).generation;
    expect(Number(firstGeneration)).toBeGreaterThan(Date.now() - 60_000);
    // The process that lost it (stalled rather than dead) writes nothing more, and stops at its next round.
    await expect(orphan.state.set({ creds: { stale: true } })).rejects.toBeInstanceOf(SessionLeaseLost);
    await dead.tick();
    expect(dead.running()).toEqual([]);
    expect(orphan.signal.aborted).toBe(true);
    await survivor.stop();
  });

  it('refuses a stale lease’s channel status writes, and stops its session at once', async () => {
    const id = await newSession();
    await database.db.updateTable('channels').set({ status: 'init', reason: 'qr' }).where('id', '=', id).execute();
    const a = recordingDriver();
    const b = recordingDriver();
    const stalled = runner(a.driver);
    const taker = runner(b.driver);
    await stalled.tick();
    const orphan = a.open.get(id)!;
    const store = createStore(database.db, () => ({ enqueue: async () => {} }) as never, { singleConnection: databaseKind() === 'pglite' });
    const deps: SessionChannelDeps = { store, clock: new ManualClock(at), renderQr: async (payload) => `data:image/png;base64,${payload}` };
    // The owner stalls past its lease; another process takes the session over.
    await database.db.updateTable('sessions').set({ lease_until: new Date(0) }).where('channel_id', '=', id).execute();
    await taker.tick();
    expect(taker.running()).toEqual([id]);
    // Woken, the stalled process hears its messenger's last words: each write is refused, whatever its clock says.
    await expect(sessionEnded(deps, orphan, 'opened_elsewhere')).rejects.toBeInstanceOf(SessionLeaseLost);
    // Stopped at the first refusal, without waiting for its next round.
    expect(orphan.signal.aborted).toBe(true);
    expect(stalled.running()).toEqual([]);
    await expect(sessionQrIssued(deps, orphan, '2@stale,noise', 'whatsapp')).rejects.toBeInstanceOf(SessionLeaseLost);
    await expect(sessionLinked(deps, orphan, '79005550000', {})).rejects.toBeInstanceOf(SessionLeaseLost);
    await expect(withSessionFence(store, orphan, async (tx) => tx.channels.update({ ...(await tx.channels.getByIdForUpdate(id))!, name: 'stale' }))).rejects.toBeInstanceOf(SessionLeaseLost);
    expect(await database.db.selectFrom('channels').select(['status', 'reason', 'qr', 'name']).where('id', '=', id).executeTakeFirst()).toEqual({ status: 'init', reason: 'qr', qr: null, name: null });
    // The current holder's writes go through.
    const current = b.open.get(id)!;
    expect(await sessionQrIssued(deps, current, '2@current,noise', 'whatsapp')).toBe('continue');
    await sessionEnded(deps, current, 'qr_exhausted');
    expect(await database.db.selectFrom('channels').select(['status', 'reason']).where('id', '=', id).executeTakeFirst()).toEqual({ status: 'disabled', reason: 'qridle' });
    await taker.stop();
  });

  it('stops its connections itself when it cannot renew, before the lease could lapse', async () => {
    const id = await newSession();
    const clock = new ManualClock();
    let failing = false;
    const flaky: SessionLeases = { ...leases, renew: (input) => (failing ? Promise.reject(new Error('connection lost')) : leases.renew(input)) };
    const a = recordingDriver();
    const owner = runner(a.driver, { clock, leases: flaky, leaseMs: 20_000 });
    await owner.tick();
    expect(owner.running()).toEqual([id]);
    failing = true;
    clock.advance(10_000);
    await owner.tick();
    expect(owner.running()).toEqual([id]);
    clock.advance(5_000);
    await owner.tick();
    expect(owner.running()).toEqual([]);
    // The database back before anyone took it: the same process runs it again.
    failing = false;
    await owner.tick();
    expect(owner.running()).toEqual([id]);
    await owner.stop();
  });

  it('gives each session to one of several processes acquiring at once, up to each one’s capacity', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => newSession()));
    const drivers = [recordingDriver(), recordingDriver(), recordingDriver()];
    const runners = drivers.map((d) => runner(d.driver, { capacity: 5 }));
    await Promise.all(runners.map((r) => r.tick()));
    await Promise.all(runners.map((r) => r.tick()));
    const running = runners.flatMap((r) => r.running());
    expect(running.sort()).toEqual([...ids].sort());
    for (const r of runners) expect(r.running().length).toBeLessThanOrEqual(5);
    expect(drivers.flatMap((d) => d.starts).length).toBe(12);
    await Promise.all(runners.map((r) => r.stop()));
  });

  it('stops a session whose channel was removed, and starts no session of a transport it has no driver for', async () => {
    const id = await newSession();
    const other = await newSession('tgapi');
    const a = recordingDriver();
    const r = runner(a.driver);
    await r.tick();
    expect(r.running()).toEqual([id]);
    expect((await leases.holder(other))?.owner).toBeNull();
    await leases.remove(id);
    await r.tick();
    expect(r.running()).toEqual([]);
    await r.stop();
  });

  it('lets only the process holding a session claim the sends through its channel', async () => {
    const id = await newSession();
    const a = recordingDriver();
    const holder = runner(a.driver);
    const message = (text: string): Omit<MessageRecord, 'chatRef'> => ({
      id: randomUUID(), requestId: randomUUID(), accountId, channelId: id, direction: 'outbound', status: 'accepted', reason: null, text,
      attachment: null, template: null, keyboard: null, quotedMessageId: null, crmUserId: null, resetUnanswered: true, messengerMessageId: null,
      createdAt: at, sentAt: null, deliveredAt: null, readAt: null, editedAt: null, deletedAt: null,
    });
    const chat: KnownChatEffect = { newId: randomUUID(), accountId, channelId: id, chatType: 'whatsapp', chatId: '79990001122', name: null, resetUnanswered: true, lastMessageAt: at };
    await sendQueueRepository(database.db).acceptToKnownChats([chat], [{ message: message('hello'), chatType: 'whatsapp', chatId: '79990001122' }]);
    const claimAs = (owner: string | null) => sendQueueRepository(database.db, undefined, undefined, owner).claim({ limit: 10, leaseSeconds: 30, now: at });

    // Nobody runs the session yet: the send waits for the process that will.
    expect(await claimAs(null)).toHaveLength(0);
    await holder.tick();
    expect(await claimAs(randomUUID())).toHaveLength(0);
    expect(await claimAs(null)).toHaveLength(0);
    const claimed = await claimAs(holder.owner);
    expect(claimed.map((c) => c.message.text)).toEqual(['hello']);
    // Claimed already, by this holder: not again while its claim runs.
    expect(await claimAs(holder.owner)).toHaveLength(0);

    // The holder dies with the send claimed (its claim runs 30 s more). Once another process holds the session, the
    // send is due to it at once: the claim was the former holder's, whose connection is gone.
    await database.db.updateTable('sessions').set({ lease_until: new Date(0) }).where('channel_id', '=', id).execute();
    const b = recordingDriver();
    const next = runner(b.driver);
    await next.tick();
    expect(next.running()).toEqual([id]);
    expect(await claimAs(holder.owner)).toHaveLength(0);
    const reclaimed = await claimAs(next.owner);
    expect(reclaimed.map((c) => ({ text: c.message.text, attempt: c.attempt }))).toEqual([{ text: 'hello', attempt: 2 }]);
    expect(await claimAs(next.owner)).toHaveLength(0);
    await next.stop();
    await holder.stop();
  });
});
