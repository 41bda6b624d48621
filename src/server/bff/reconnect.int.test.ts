import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatched, frameClient, recordInbound, type FrameClient } from '../testing/frame-client.ts';
import { openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`a frame that reconnects (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let baseUrl: string;
  let a: { accountId: string; token: string };
  const deps = () => ({ store: t.gateway.store, clock });
  const chat = (i: number) => ({ chat_type: 'whatsapp', chat_id: `7999000000${i % 3}` }) as const;
  const produce = async (count: number, label: string) => {
    const events = [];
    for (let i = 0; i < count; i++) {
      events.push(await recordInbound(deps(), a.accountId, chat(i), `${label} ${i}`));
      clock.advance(1000);
    }
    return events;
  };

  beforeAll(async () => {
    t = await startTestGateway({ clock, env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    a = await t.newAccount('A');
  });
  afterAll(() => t.close());

  const open = async (body: object): Promise<FrameClient> => {
    const client = frameClient(baseUrl, await openFrame(t, a.token, 'chats', body as never));
    await client.connect();
    return client;
  };

  it('ends with every event: those before, those missed while away, and those after', async () => {
    const client = await open({ user: { id: 'u1' }, scope: 'global' });
    const before = await produce(3, 'before');
    await client.until(() => client.events.length === 3, 'the first events');

    client.socket.disconnect();
    const missed = await produce(20, 'missed');
    // They were pushed live while the client was away, so only the catch-up can bring them.
    await dispatched(t.gateway, missed);
    expect(client.events).toHaveLength(3);

    await client.connect();
    const after = await produce(3, 'after');
    const all = [...before, ...missed, ...after].map((e) => e.id);
    await client.until(() => client.events.length === all.length, 'every event');
    expect(client.events.map((e) => e.id).sort()).toEqual([...all].sort());
    expect(new Set(client.events.map((e) => e.id)).size).toBe(all.length);
    expect(client.resyncs).toEqual([]);
    client.close();
  });

  it("gives a card frame back only its own chat's missed events", async () => {
    const client = await open({ user: { id: 'u1' }, scope: 'card', chats: [chat(1)] });
    client.socket.disconnect();
    const missed = await produce(9, 'card');
    await dispatched(t.gateway, missed);
    await client.connect();
    const mine = missed.filter((_, i) => i % 3 === 1).map((e) => e.id);
    const got = client.events.map((e) => e.id);
    expect(got.filter((id) => mine.includes(id))).toEqual(mine);
    // Anything else is the overlap window resent for late commits: still only this chat.
    expect(client.events.every((e) => e.name === 'message.add' && e.payload.recipient.chat_id === chat(1).chat_id)).toBe(true);
    client.close();
  });

  it('tells a client whose position is not in its stream to resync, then continues live', async () => {
    const token = await openFrame(t, a.token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const client = frameClient(baseUrl, token);
    client.position = 10_000_000;
    await client.connect();
    expect(client.resyncs).toEqual([{ reason: 'unknown_position', position: expect.any(Number) }]);
    const [next] = await produce(1, 'after resync');
    await client.until(() => client.events.some((e) => e.id === next!.id), 'the live event');
    client.close();
  });
});
