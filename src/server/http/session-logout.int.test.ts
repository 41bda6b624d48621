import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-client.ts';
import { eventually } from '../testing/eventually.ts';
import type { TestGateway } from '../testing/harness.ts';
import { startLiveAt } from '../testing/restarted-gateway.ts';
import { liveOwner } from '../testing/session-takeover.ts';
import { telegramAccountFake } from '../testing/telegram-account-fake.ts';
import { createTestDatabase, databaseKind, type TestDatabase } from '../testing/test-database.ts';
import { FakeWaLibrary, type FakeWaSocket } from '../testing/whatsapp-personal-fake.ts';

const self = { id: 720100, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };
/** Short, so that a lease held by a dead process lapses quickly. */
const LEASE_SECONDS = 2;
const ENV = { SECRET_KEY: 'l'.repeat(40), WHATSAPP_PERSONAL: 'on', SESSION_LEASE_SECONDS: String(LEASE_SECONDS) };

/**
 * Two gateway processes on one PostgreSQL (in this process: the libraries' fakes cannot leave it), each running the
 * personal WhatsApp and Telegram drivers over fakes of their own. A channel deleted or reinitialized through the
 * process that does not run its session still has its linked device logged out on the messenger, by the process that
 * runs it, or, when its owner died, by the process that takes it over for that; its keys go after the logout.
 */
describe.runIf(databaseKind() === 'postgres')('logging a session’s device out whichever process takes the call', () => {
  const telegram = telegramAccountFake({ self, seed: 'logout' });
  const libraries = { a: new FakeWaLibrary(), b: new FakeWaLibrary() };
  let database: TestDatabase;
  const gateways: Partial<Record<'a' | 'b', TestGateway>> = {};
  let token: string;
  let telegramChannel: string;

  const start = async (label: 'a' | 'b') => {
    ({ t: gateways[label] } = await startLiveAt(database, ENV, {}, { tgapiClients: telegram.clientsOf(label), whatsapp: { library: libraries[label] } }));
  };
  beforeAll(async () => {
    database = await createTestDatabase();
    await start('a');
    ({ token } = await gateways.a!.newAccount());
    // The Telegram account logs in through the first process, which runs its session before the second one starts
    // (a login's client and a second one from the stored state would be one session used twice).
    ({ channel_id: telegramChannel } = await channelClient(gateways.a!, token).create('tgapi'));
    // The phone scans the code once it is shown (it comes from Telegram after the create's answer).
    const db = gateways.a!.gateway.database.db;
    await eventually(async () => ((await db.selectFrom('events').select('id').where('name', '=', 'channel.qr_update').executeTakeFirst()) ? true : undefined));
    telegram.scan();
    await channelClient(gateways.a!, token).untilActive(telegramChannel);
    await eventually(async () => (gateways.a!.gateway.sessions?.running().includes(telegramChannel) ? true : undefined));
    await start('b');
  }, 60_000);
  afterAll(async () => {
    await gateways.a?.close();
    await gateways.b?.close();
    await database?.drop();
  });

  const db = () => gateways.a!.gateway.database.db;
  const labelOf = (owner: string): 'a' | 'b' => (gateways.a!.gateway.sessions?.owner === owner ? 'a' : 'b');
  const otherThan = (label: 'a' | 'b') => gateways[label === 'a' ? 'b' : 'a']!;
  /** The process running the channel's session now, once one does. */
  const runner = async (channelId: string) => labelOf(await eventually(async () => (await liveOwner(db(), channelId)) ?? undefined));
  /** The socket the session's runner opened in its process. */
  const socketIn = (label: 'a' | 'b', after: number) => eventually(async () => libraries[label].sockets[after] ?? undefined);
  const sessionRow = async (channelId: string) => db().selectFrom('sessions').selectAll().where('channel_id', '=', channelId).executeTakeFirst();

  /** A WhatsApp channel linked by the phone and active, its session running in one of the processes. */
  const linkedWhatsApp = async (phone: string): Promise<{ id: string; socket: FakeWaSocket; owner: 'a' | 'b' }> => {
    const before = { a: libraries.a.sockets.length, b: libraries.b.sockets.length };
    const { channel_id: id } = await channelClient(gateways.a!, token).create('whatsapp');
    const owner = await runner(id);
    const socket = await socketIn(owner, before[owner]);
    socket.emit('connection.update', { qr: `2@${id},noise,identity,adv` });
    await eventually(async () => ((await gateways.a!.gateway.store.channels.getById(id))?.qr ? true : undefined));
    socket.link(phone, 'Acme Shop');
    socket.emit('connection.update', { receivedPendingNotifications: true });
    await channelClient(gateways.a!, token).untilActive(id);
    // Keys as the library stores them: they must outlive the call until the logout was made with them.
    await socket.state.set({ creds: { me: { id: `${phone}:3@s.whatsapp.net` } } });
    return { id, socket, owner };
  };

  it('logs a WhatsApp device out through the process running the session when another deletes the channel', async () => {
    const { id, socket, owner } = await linkedWhatsApp('79005550001');
    const res = await otherThan(owner).call('DELETE', `/v2/channels/${id}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(socket.loggedOut).toBe(true);
    expect(await sessionRow(id)).toBeUndefined();
    expect(await db().selectFrom('session_state').select('key').where('channel_id', '=', id).execute()).toEqual([]);
  });

  it('logs the device linked before out on a reinit through the other process, and starts a new link', async () => {
    const { id, socket, owner } = await linkedWhatsApp('79005550002');
    const res = await otherThan(owner).call('POST', `/v2/channels/${id}/reinit`, { token, body: { credentials: {} } });
    expect(res.statusCode, res.body).toBe(200);
    expect(socket.loggedOut).toBe(true);
    expect(await channelClient(gateways.a!, token).get(id)).toMatchObject({ status: 'init', reason: 'qr' });
    // The new link's session is registered afresh (no keys), and runs.
    await eventually(async () => ((await liveOwner(db(), id)) ? true : undefined));
    expect(await db().selectFrom('session_state').select('key').where('channel_id', '=', id).execute()).toEqual([]);
  });

  it('logs a dead owner’s WhatsApp device out with the stored keys, from the process that takes the session over for that', async () => {
    const { id, owner } = await linkedWhatsApp('79005550003');
    // Its owner dies holding a live lease (the process that ran it finds the lease another's, and stops its
    // connection): the session stays stored, run nowhere, until the lease lapses.
    await sql`update sessions set owner = 'a-process-that-died', lease_until = now() + interval '2 seconds' where channel_id = ${id}`.execute(db());
    await eventually(async () => (gateways[owner]!.gateway.sessions?.running().includes(id) ? undefined : true));
    const before = { a: libraries.a.sockets.length, b: libraries.b.sockets.length };
    const deleting = otherThan(owner).call('DELETE', `/v2/channels/${id}`, { token });
    // Once the lease lapsed, a live process opens the session with its keys only to log it out.
    const socket = await eventually(async () => libraries.a.sockets[before.a] ?? libraries.b.sockets[before.b] ?? undefined, 20_000);
    expect(await sessionRow(id)).toMatchObject({ logout_requested: true });
    socket.link('79005550003', 'Acme Shop');
    const res = await deleting;
    expect(res.statusCode, res.body).toBe(200);
    expect(socket.loggedOut).toBe(true);
    expect(socket.ended).toBe(true);
    expect(await sessionRow(id)).toBeUndefined();
    // Nothing of that connection reached the channel (it stays deleted, not logged out).
    expect(await db().selectFrom('channels').select(['status', 'reason']).where('id', '=', id).executeTakeFirst()).toEqual({ status: 'disabled', reason: null });
  }, 30_000);

  it('logs a Telegram account’s session out through the process running it when another deletes the channel', async () => {
    expect(await runner(telegramChannel)).toBe('a');
    const callsBefore = telegram.callers.length;
    const res = await gateways.b!.call('DELETE', `/v2/channels/${telegramChannel}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    const logouts = telegram.callers.slice(callsBefore).filter((c) => c.method === 'auth.logOut');
    expect(logouts).toEqual([{ label: 'a', method: 'auth.logOut' }]);
    expect(await sessionRow(telegramChannel)).toBeUndefined();
  }, 30_000);
});
