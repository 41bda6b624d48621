import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { clientEventNames, maxRefusedMessages, realtimePath, type MessageRefused } from '../../../contract/realtime.ts';
import { dispatched, frameClient, recordInbound, type FrameClient } from '../../testing/frame-client.ts';
import { openFrame } from '../../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../../testing/harness.ts';
import { seededRandom } from '../../testing/webhook-receiver.ts';
import { databaseKind } from '../../testing/test-database.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { hostileArguments, hostileHandshakes, malformedPackets, unknownEventNames } from '../../testing/hostile-payloads.ts';

type Transport = 'polling' | 'websocket';
type RawSocket = Socket & { io: { engine: { write(packet: string): void } } };

const SEED = 4711;

/** What the gateway answered within a few seconds, or `no answer`. */
const answerOf = <T>(...answers: Promise<T>[]) => Promise.race([...answers, new Promise<string>((r) => setTimeout(() => r('no answer'), 3_000))]);

/**
 * Everything a frame may send, sent wrong on purpose, over both transports: the gateway stays up, answers HTTP,
 * and another account's frame keeps getting its events. A refused message is answered (`refused`) or ends the
 * sender's connection; it never reaches a handler unchecked, and no handler's error reaches the event loop.
 */
describe(`hostile frame messages (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let baseUrl: string;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };
  let bystander: FrameClient;
  const sockets: Socket[] = [];
  const escaped: unknown[] = [];
  const hear = (err: unknown) => escaped.push(err);

  const chatsFrame = (account: { token: string }) => openFrame(t, account.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
  const channelsFrame = (account: { token: string }) => openFrame(t, account.token, 'channels', {});

  const connect = async (token: string, transport: Transport, auth: object = { token }) => {
    const socket = io(baseUrl, { path: realtimePath, transports: [transport], reconnection: false, forceNew: true, auth: { ...auth } }) as RawSocket;
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    return socket;
  };

  /** The gateway still answers: HTTP health, and the other account's frame gets a message recorded now. */
  const stillServing = async (what: string) => {
    const health = await fetch(`${baseUrl}/healthz`);
    expect(health.status, `${what}: /healthz`).toBe(200);
    const text = `after ${what}`;
    const event = await recordInbound({ store: t.gateway.store, clock }, b.accountId, { chat_type: 'telegram', chat_id: '7001' }, text);
    await dispatched(t.gateway, [event]);
    await bystander.until(() => bystander.events.some((e) => e.name === 'message.add' && e.payload.text === text), `${what}: the bystander's event`);
    expect(escaped, `${what}: errors that reached the event loop`).toEqual([]);
  };

  beforeAll(async () => {
    process.on('uncaughtException', hear);
    process.on('unhandledRejection', hear);
    t = await startTestGateway({ clock, env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    a = await t.newAccount('A');
    b = await t.newAccount('B');
    bystander = frameClient(baseUrl, await chatsFrame(b));
    await bystander.connect();
  });
  beforeEach(() => {
    escaped.splice(0);
  });
  afterEach(() => {
    sockets.splice(0).forEach((s) => s.disconnect());
  });
  afterAll(async () => {
    bystander.close();
    await t.close();
    process.off('uncaughtException', hear);
    process.off('unhandledRejection', hear);
  });

  for (const transport of ['polling', 'websocket'] as const) {
    it(`answers every client event's hostile payloads with refused, over ${transport}`, async () => {
      const random = seededRandom(SEED);
      for (const [kind, open] of [['chats', chatsFrame], ['channels', channelsFrame]] as const) {
        for (const event of clientEventNames) {
          let socket: RawSocket | null = null;
          let sent = 0;
          for (const { label, args, oversized } of hostileArguments(random)) {
            // A connection refused too often is ended: the messages go over a new one before that.
            if (!socket?.connected || sent++ % maxRefusedMessages === 0) {
              socket?.disconnect();
              socket = await connect(await open(a), transport);
            }
            const sender = socket;
            const refused = new Promise<MessageRefused>((resolve) => sender.once('refused', resolve));
            const disconnected = new Promise<string>((resolve) => sender.once('disconnect', () => resolve('disconnected')));
            // Every other message, drawn from the seed, asks for an acknowledgement: refused, it gets the refusal.
            const asksAck = random() < 0.5;
            const acked = new Promise<unknown>((resolve) => {
              if (asksAck) sender.emit(event as never, ...(args as never[]), resolve);
              else sender.emit(event as never, ...(args as never[]));
            });
            const answer = await answerOf<unknown>(refused, disconnected);
            if (oversized) expect(answer, `${kind} ${event} ${label}`).toBe('disconnected');
            else {
              expect(answer, `${kind} ${event} ${label}`).toMatchObject({ event, error: 'VALIDATION_ERROR' });
              if (asksAck) await expect(answerOf(acked), `${kind} ${event} ${label}: the acknowledgement`).resolves.toMatchObject({ event, error: 'VALIDATION_ERROR' });
            }
          }
          await stillServing(`${kind} ${event} over ${transport}`);
        }
      }
    });

    it(`ends a connection that keeps sending refused messages, over ${transport}`, async () => {
      const socket = await connect(await chatsFrame(a), transport);
      const refusals: MessageRefused[] = [];
      socket.on('refused', (r) => refusals.push(r));
      const ended = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      for (let i = 0; i <= maxRefusedMessages; i++) socket.emit('catch_up', { toString: 1 } as never);
      expect(await answerOf(ended)).toBe('io server disconnect');
      expect(refusals).toHaveLength(maxRefusedMessages);
      await stillServing(`repeated refusals over ${transport}`);
    });

    it(`ignores events the contract does not name, over ${transport}`, async () => {
      const random = seededRandom(SEED + 1);
      const socket = await connect(await chatsFrame(a), transport);
      const refusals: MessageRefused[] = [];
      socket.on('refused', (r) => refusals.push(r));
      for (const name of unknownEventNames) {
        for (const { args } of hostileArguments(random).slice(0, 4)) socket.emit(name as never, ...(args as never[]));
      }
      await stillServing(`unknown events over ${transport}`);
      expect(socket.connected).toBe(true);
      expect(refusals).toEqual([]);
      // Still served: a valid catch-up is answered.
      const answered = new Promise((resolve) => socket.once('caught_up', resolve));
      socket.emit('catch_up', 0);
      await expect(answerOf(answered)).resolves.toHaveProperty('position');
    });

    it(`survives malformed packets, over ${transport}`, async () => {
      for (const packet of malformedPackets) {
        const socket = await connect(await chatsFrame(a), transport);
        const closed = new Promise((resolve) => socket.once('disconnect', resolve));
        socket.io.engine.write(packet);
        await Promise.race([closed, new Promise((r) => setTimeout(r, 200))]);
        await stillServing(`packet ${JSON.stringify(packet).slice(0, 40)} over ${transport}`);
      }
    });

    it(`refuses hostile handshakes without failing, over ${transport}`, async () => {
      const token = await chatsFrame(a);
      for (const { label, auth } of hostileHandshakes(token, seededRandom(SEED + 2))) {
        const refused = connect(token, transport, auth);
        await expect(refused, label).rejects.toMatchObject({ message: expect.stringMatching(/^(VALIDATION_ERROR|UNAUTHORIZED)$/) });
      }
      await stillServing(`hostile handshakes over ${transport}`);
    });
  }
});
