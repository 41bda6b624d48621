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

describe(`a gateway that stops with frames connected (${databaseKind()})`, () => {
  let t: TestGateway;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
  });
  afterAll(() => t.close());

  it('cuts their connections so that they reconnect by themselves, rather than ending them', async () => {
    const a = await t.newAccount('A');
    const token = await openFrame(t, a.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const socket = frameSocket(baseUrl, token);
    const reasons: string[] = [];
    socket.on('disconnect', (reason) => reasons.push(reason));
    await until(() => socket.connected, 'the connection');

    // What a stopping gateway does before its HTTP server closes (SIGTERM, a deploy).
    await t.gateway.realtime.close();
    await until(() => reasons.length > 0, 'the disconnection');

    // "io server disconnect" would leave the frame offline for good: socket.io's client does not retry it.
    expect(reasons).toEqual(['transport close']);
    expect(socket.active).toBe(true);
    socket.disconnect();
  });
});

describe(`a frame whose connection cannot be set up (${databaseKind()})`, () => {
  let t: TestGateway;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
  });
  afterAll(() => t.close());

  it('is cut and tries again by itself, catching up then', async () => {
    const a = await t.newAccount('A');
    const token = await openFrame(t, a.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    // The first catch-up read fails, as it may while the database is still coming up after a restart.
    const { eventLog } = t.gateway.store;
    const head = eventLog.head.bind(eventLog);
    let failures = 1;
    eventLog.head = (accountId) => (failures-- > 0 ? Promise.reject(new Error('the database is starting up')) : head(accountId));
    const socket = frameSocket(baseUrl, token);
    const reasons: string[] = [];
    let caughtUp = false;
    socket.on('disconnect', (reason) => reasons.push(reason));
    socket.on('caught_up', () => (caughtUp = true));

    await until(() => caughtUp, 'the catch-up of a second connection');
    expect(reasons).toEqual(['transport close']);
    expect(socket.connected).toBe(true);
    socket.disconnect();
  });
});
