import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { openFrame } from '../testing/frames.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';
import { customerText, FakeWaLibrary, type FakeWaSocket } from '../testing/whatsapp-personal-fake.ts';

describe(`reactions and typing on personal WhatsApp accounts (${databaseKind()})`, () => {
  const library = new FakeWaLibrary();
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let socket: FakeWaSocket;
  const customer = '15557654321';
  const jid = `${customer}@s.whatsapp.net`;

  beforeAll(async () => {
    ({ t } = await startLiveGateway({ SECRET_KEY: 'k'.repeat(40), WHATSAPP_PERSONAL: 'on' }, { whatsapp: { library, backoff: { baseMs: 40, maxMs: 400 }, random: () => 0.5 } }));
    ({ token, accountId } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'whatsapp', credentials: {} } });
    expect(res.statusCode, res.body).toBe(201);
    const channelId = res.json().data[0].channel_id as string;
    socket = await eventually(async () => (library.sockets.length > 0 ? library.last() : undefined));
    socket.link('79005554433', 'Acme Shop');
    socket.emit('connection.update', { receivedPendingNotifications: true });
    await eventually(async () => ((await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0].status === 'active' ? true : undefined));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends the agent’s reaction and typing to WhatsApp, and records the customer’s and the phone’s reactions', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    socket.emit('messages.upsert', { messages: [customerText(customer, 'wamid.ASK1', 'Do you ship abroad?')], type: 'notify' });
    const frame = await openFrame(t, token, 'chats', { user: { id: 'u1' }, scope: 'global' });
    const chat = await eventually(async () => (await t.call('GET', '/bff/chats', { token: frame })).json().data.chats[0] as { chat_ref: string } | undefined);
    const [asked] = (await t.call('GET', `/bff/chats/${chat.chat_ref}/messages`, { token: frame })).json().data.messages;

    const reacted = await t.call('PUT', `/bff/messages/${asked.message_id}/reaction`, { token: frame, body: { emoji: '👍' } });
    expect(reacted.statusCode, reacted.body).toBe(200);
    expect(socket.sent.at(-1)).toMatchObject({ jid, content: { react: { text: '👍', key: { remoteJid: jid, fromMe: false, id: 'wamid.ASK1' } } } });
    await t.call('PUT', `/bff/messages/${asked.message_id}/reaction`, { token: frame, body: { emoji: null } });
    expect(socket.sent.at(-1)).toMatchObject({ content: { react: { text: '', key: { id: 'wamid.ASK1' } } } });

    const typing = await t.call('POST', `/bff/chats/${chat.chat_ref}/typing`, { token: frame });
    expect(typing.statusCode, typing.body).toBe(204);
    expect(socket.presences).toEqual([{ type: 'composing', jid }]);

    // The customer reacts, then the account's owner on the phone.
    const reaction = (id: string, fromMe: boolean, text: string) => ({
      key: { remoteJid: jid, fromMe, id },
      messageTimestamp: 1_795_704_800,
      message: { reactionMessage: { key: { remoteJid: jid, fromMe: false, id: 'wamid.ASK1' }, text } },
    });
    socket.emit('messages.upsert', { messages: [reaction('wamid.R1', false, '❤️'), reaction('wamid.R2', true, '🙏')], type: 'notify' } as never);
    const seen: Awaited<ReturnType<typeof stream.since>> = [];
    const events = await eventually(async () => {
      seen.push(...(await stream.since()).filter((e) => e.name === 'message.reaction'));
      return seen.length >= 4 ? seen : undefined;
    });
    expect(events.map((e) => [e.payload.by, e.payload.reactor, e.payload.emoji])).toEqual([
      ['agent', 'agent', '👍'],
      ['agent', 'agent', null],
      ['customer', customer, '❤️'],
      ['agent', 'agent', '🙏'],
    ]);
    const shown = (await t.call('GET', `/bff/chats/${chat.chat_ref}/messages`, { token: frame })).json().data.messages[0];
    expect(shown.reactions).toEqual([
      { emoji: '❤️', by: 'customer', reactor: customer },
      { emoji: '🙏', by: 'agent', reactor: 'agent' },
    ]);
    // Taken back by the customer: an empty reaction.
    socket.emit('messages.upsert', { messages: [reaction('wamid.R3', false, '')], type: 'notify' } as never);
    await eventually(async () => {
      const m = (await t.call('GET', `/bff/chats/${chat.chat_ref}/messages`, { token: frame })).json().data.messages[0];
      return m.reactions?.length === 1 ? true : undefined;
    });
  });
});
