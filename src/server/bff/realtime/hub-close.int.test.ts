import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import { realtimePath } from '../../../contract/realtime.ts';
import { openFrame } from '../../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { databaseKind } from '../../testing/test-database.ts';

const until = async (done: () => boolean, what: string) => {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** A frame's socket as the widget opens it: it reconnects by itself, with socket.io's own backoff. */
const frameSocket = (baseUrl: string, token: string) =>
  io(baseUrl, { path: realtimePath, transports: ['websocket'], reconnectionDelay: 100, reconnectionDelayMax: 500, auth: { token } });

/**
 * socket.io's client retries a connection that was cut, but not one the server ended ("io server disconnect") nor
 * one it refused (a connect_error from the handshake): a frame left so stays offline until it is reloaded. The hub
 * ends or refuses only for a session that is over; anything else that goes wrong cuts.
 */
describe(`frames whose gateway fails them for a while (${databaseKind()})`, () => {
  let t: TestGateway;
  let baseUrl: string;
  let token: () => Promise<string>;

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    const a = await t.newAccount('A');
    token = () => openFrame(t, a.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
  });
  afterAll(() => t.close());

  it('cuts a connection whose session cannot be read for a moment, rather than refusing it; it connects by itself then', async () => {
    const frame = await token();
    const { embedSessions } = t.gateway.store;
    const get = embedSessions.get.bind(embedSessions);
    let failures = 2;
    embedSessions.get = (id) => (failures-- > 0 ? Promise.reject(new Error('the database cannot be reached')) : get(id));
    const socket = frameSocket(baseUrl, frame);
    const refusals: string[] = [];
    socket.on('connect_error', (err) => {
      if (!socket.active) refusals.push(err.message);
    });
    try {
      await until(() => socket.connected || refusals.length > 0, 'the connection');
      expect(refusals).toEqual([]);
      expect(failures).toBeLessThan(0);
    } finally {
      embedSessions.get = get;
      socket.disconnect();
    }
  });

  it('cuts a connection whose catch-up cannot be read, rather than ending it; it catches up on the next one', async () => {
    const frame = await token();
    const { eventLog } = t.gateway.store;
    const head = eventLog.head.bind(eventLog);
    let failures = 1;
    eventLog.head = (accountId) => (failures-- > 0 ? Promise.reject(new Error('the database is starting up')) : head(accountId));
    const socket = frameSocket(baseUrl, frame);
    const reasons: string[] = [];
    let caughtUp = false;
    socket.on('disconnect', (reason) => reasons.push(reason));
    socket.on('caught_up', () => (caughtUp = true));

    try {
      await until(() => caughtUp || reasons.includes('io server disconnect'), 'the catch-up of a second connection');
      expect(reasons).toEqual(['transport close']);
      expect(socket.connected).toBe(true);
    } finally {
      eventLog.head = head;
      socket.disconnect();
    }
  });

  // Last: the hub does not serve again after it closed.
  it('cuts every connection when the gateway stops (SIGTERM, a deploy), so that the frames come back by themselves', async () => {
    const socket = frameSocket(baseUrl, await token());
    const reasons: string[] = [];
    socket.on('disconnect', (reason) => reasons.push(reason));
    await until(() => socket.connected, 'the connection');

    await t.gateway.realtime.close();
    await until(() => reasons.length > 0, 'the disconnection');

    expect(reasons).toEqual(['transport close']);
    expect(socket.active).toBe(true);
    socket.disconnect();
  });
});
