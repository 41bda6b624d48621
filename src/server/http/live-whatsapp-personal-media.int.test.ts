import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream, type StreamedEvent } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { chromiumVoiceNote } from '../testing/voice-fixture.ts';
import { customerMessage, FakeWaLibrary, mediaContent, type FakeWaSocket } from '../testing/whatsapp-personal-fake.ts';

const PHOTO = Buffer.from('\xff\xd8\xff\xe0 a photo', 'latin1');
const CLIP = Buffer.from('....ftypisom a clip');
const VOICE = Buffer.from('OggS a voice note');
const SONG = Buffer.from('ID3 a song');
const PDF = Buffer.from('%PDF-1.7 an invoice');
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/** The CRM's file server, on loopback (which a gateway outside production may fetch from, WEBHOOK_ALLOW_LOOPBACK). */
const crmFiles: Record<string, { type: string; bytes: Buffer }> = {
  '/photo.jpg': { type: 'image/jpeg', bytes: PHOTO },
  '/clip.mp4': { type: 'video/mp4', bytes: CLIP },
  '/note.ogg': { type: 'audio/ogg', bytes: VOICE },
  '/song.mp3': { type: 'audio/mpeg', bytes: SONG },
  '/invoice.pdf': { type: 'application/pdf', bytes: PDF },
};
/** A voice note the chat frame recorded in Chromium, as its upload serves it (kept apart: the sends above are counted). */
const recorded = { type: 'audio/webm', bytes: chromiumVoiceNote() };

describe(`live personal WhatsApp accounts' files and groups (${databaseKind()})`, () => {
  const library = new FakeWaLibrary();
  let t: TestGateway;
  let token: string;
  let accountId: string;
  let channelId: string;
  let socket: FakeWaSocket;
  let crm: Server;
  let crmUrl: string;

  beforeAll(async () => {
    crm = createServer((req, res) => {
      const file = req.url === '/voice-1.webm' ? recorded : crmFiles[req.url ?? ''];
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes);
    });
    await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
    crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
    ({ t } = await startLiveGateway({ SECRET_KEY: 'k'.repeat(40), WHATSAPP_PERSONAL: 'on', WEBHOOK_ALLOW_LOOPBACK: 'true' }, { whatsapp: { library } }));
    ({ token, accountId } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'whatsapp', credentials: {} } });
    channelId = res.json().data[0].channel_id;
    socket = await eventually(async () => library.sockets.at(-1));
    socket.emit('connection.update', { qr: '2@media-ref,noise,identity,adv' });
    socket.link('79005554433', 'Acme Shop');
    socket.emit('connection.update', { receivedPendingNotifications: true });
    await eventually(async () => ((await t.call('GET', `/v2/channels/${channelId}`, { token })).json().data[0].status === 'active' ? true : undefined));
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => crm?.close(resolve));
  });

  const added = (events: StreamedEvent[]) => events.filter((e) => e.name === 'message.add').map((e) => e.payload);
  const until = async (stream: ReturnType<typeof eventStream>, name: string, count: number) => {
    const seen: StreamedEvent[] = [];
    await eventually(async () => {
      seen.push(...(await stream.since()));
      return seen.filter((e) => e.name === name).length >= count ? true : undefined;
    });
    return seen;
  };

  it('keeps each file a customer sends behind the gateway’s signed link, its caption as a message of its own, once', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const delivered = [
      ['wamid.IMG1', mediaContent.image(PHOTO, 'our new sofa'), PHOTO],
      ['wamid.VID1', mediaContent.video(CLIP), CLIP],
      ['wamid.PTT1', mediaContent.voice(VOICE), VOICE],
      ['wamid.AUD1', mediaContent.audio(SONG), SONG],
      ['wamid.DOC1', mediaContent.document(PDF, 'invoice-42.pdf', 'the invoice'), PDF],
    ] as const;
    for (const [id, , bytes] of delivered) socket.media.set(id, bytes);
    const messages = delivered.map(([id, content]) => customerMessage('15551234567', id, content));
    socket.emit('messages.upsert', { type: 'notify', messages });
    // The same messages again (the history sent on a reconnect): neither downloaded nor recorded again. A text after
    // them tells when they have been read.
    socket.emit('messages.upsert', { type: 'append', messages });
    socket.emit('messages.upsert', { type: 'notify', messages: [customerMessage('15551234567', 'wamid.TXT1', { conversation: 'that is all' })] });
    const events = added(await until(stream, 'message.add', 8));
    expect(events).toHaveLength(8);
    expect(socket.downloads).toEqual(['wamid.IMG1', 'wamid.VID1', 'wamid.PTT1', 'wamid.AUD1', 'wamid.DOC1']);
    const files = events.flatMap((e) => (e.attachment ? [e.attachment as Record<string, unknown>] : []));
    expect(files.map((f) => [f.name, f.mimetype, f.size, f.sha1])).toEqual([
      ['image.jpeg', 'image/jpeg', PHOTO.length, sha1(PHOTO)],
      ['video.mp4', 'video/mp4', CLIP.length, sha1(CLIP)],
      ['voice.ogg', 'audio/ogg', VOICE.length, sha1(VOICE)],
      ['audio.mpeg', 'audio/mpeg', SONG.length, sha1(SONG)],
      ['invoice-42.pdf', 'application/pdf', PDF.length, sha1(PDF)],
    ]);
    for (const [i, file] of files.entries()) {
      const res = await fetch(String(file.url));
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(delivered[i]![2]);
    }
    const captions = await t.gateway.database.db.selectFrom('messages').select(['messenger_message_id', 'text']).where('text', 'in', ['our new sofa', 'the invoice']).orderBy('messenger_message_id').execute();
    expect(captions).toEqual([
      { messenger_message_id: 'wamid.DOC1:caption', text: 'the invoice' },
      { messenger_message_id: 'wamid.IMG1:caption', text: 'our new sofa' },
    ]);
  });

  it('records the caption of a file WhatsApp no longer has, and the customer’s edit of a caption', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    socket.emit('messages.upsert', { type: 'notify', messages: [customerMessage('15551234567', 'wamid.IMG2', mediaContent.image(PHOTO, 'gone already'))] });
    socket.emit('messages.upsert', {
      type: 'notify',
      messages: [customerMessage('15551234567', 'wamid.EDIT2', { protocolMessage: { type: 14, key: { remoteJid: '15551234567@s.whatsapp.net', id: 'wamid.IMG1' }, editedMessage: { imageMessage: { caption: 'our new blue sofa' } } } })],
    });
    const seen = await until(stream, 'message.edit', 1);
    expect(added(seen).map((e) => [e.text, e.attachment])).toEqual([['gone already', undefined]]);
    const sofa = await t.gateway.database.db.selectFrom('messages').select('text').where('messenger_message_id', '=', 'wamid.IMG1:caption').executeTakeFirstOrThrow();
    expect(sofa.text).toBe('our new blue sofa');
  });

  it('keeps the files of the history WhatsApp sends only for the last day: older ones are their captions', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const at = (hoursAgo: number) => Math.floor(Date.now() / 1000) - hoursAgo * 3600;
    const recent = { ...customerMessage('15551234567', 'wamid.HIST1', mediaContent.image(PHOTO)), messageTimestamp: at(1) };
    const old = { ...customerMessage('15551234567', 'wamid.HIST2', mediaContent.image(PHOTO, 'from last week')), messageTimestamp: at(7 * 24) };
    for (const m of [recent, old]) socket.media.set(m.key.id!, PHOTO);
    const downloaded = socket.downloads.length;
    socket.emit('messaging-history.set', { chats: [], contacts: [], messages: [old, recent], isLatest: false, progress: 50 });
    const events = added(await until(stream, 'message.add', 2));
    expect(socket.downloads.slice(downloaded)).toEqual(['wamid.HIST1']);
    expect(events.map((e) => [e.text ?? null, (e.attachment as { sha1?: string } | undefined)?.sha1 ?? null])).toEqual([
      ['from last week', null],
      [null, sha1(PHOTO)],
    ]);
  });

  it('sends each kind of file as WhatsApp shows it, and fails a file that cannot be fetched as bad_content', async () => {
    socket.registered.set('15557654321', '15557654321@s.whatsapp.net');
    const send = async (path: string) => {
      const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '15557654321' }, attachment: { url: `${crmUrl}${path}` } } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.request_id as string;
    };
    for (const path of Object.keys(crmFiles)) await settled(t, await send(path), ['sent']);
    const contents = socket.sent.slice(-5).map((s) => s.content as Record<string, unknown>);
    expect(contents).toEqual([
      { image: PHOTO, mimetype: 'image/jpeg' },
      { video: CLIP, mimetype: 'video/mp4' },
      { audio: VOICE, mimetype: 'audio/ogg; codecs=opus', ptt: true },
      { audio: SONG, mimetype: 'audio/mpeg' },
      { document: PDF, mimetype: 'application/pdf', fileName: 'invoice.pdf' },
    ]);
    expect(await settled(t, await send('/missing.png'), ['failed'])).toMatchObject({ reason: 'bad_content' });
  });

  it('does not download back the library’s own copy of a file the gateway is sending', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const downloaded = socket.downloads.length;
    const sentBefore = socket.sent.length;
    let release!: () => void;
    socket.sendGate = new Promise((resolve) => (release = resolve));
    socket.echoesImages = true;
    const res = await t.call('POST', '/v2/messages', { token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '15557654321' }, attachment: { url: `${crmUrl}/photo.jpg` } } });
    expect(res.statusCode, res.body).toBe(201);
    // The copy is reported while the send has not answered yet; a customer's text after it tells when it was read.
    await eventually(async () => (socket.sent.length > sentBefore ? true : undefined));
    socket.emit('messages.upsert', { type: 'notify', messages: [customerMessage('15557654321', 'wamid.AFTER1', { conversation: 'thanks' })] });
    await until(stream, 'message.add', 1);
    release();
    socket.sendGate = null;
    socket.echoesImages = false;
    await settled(t, res.json().data.request_id, ['sent']);
    expect(socket.downloads.slice(downloaded)).toEqual([]);
    const copies = await t.gateway.database.db.selectFrom('messages').select('id').where('messenger_message_id', 'like', '3EB0%').where('attachment', 'is not', null).execute();
    expect(copies.length).toBe(5 + 1);
  });

  it('sends a voice note recorded in a browser as WebM as WhatsApp’s voice note: its Opus in Ogg', async () => {
    const body = { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: '15557654321' }, attachment: { url: `${crmUrl}/voice-1.webm`, mimetype: 'audio/webm', name: 'voice-1.webm' } };
    const res = await t.call('POST', '/v2/messages', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    await settled(t, res.json().data.request_id, ['sent']);
    const content = socket.sent.at(-1)!.content as { audio: Buffer; mimetype: string; ptt: boolean };
    expect([content.mimetype, content.ptt]).toEqual(['audio/ogg; codecs=opus', true]);
    expect(content.audio.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(content.audio.subarray(28, 36).toString('latin1')).toBe('OpusHead');
  });

  it('reports a group’s members joining and leaving, and its new subject, and records what is written in it', async () => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    const group = '120363025246125486@g.us';
    socket.emit('messages.upsert', { type: 'notify', messages: [customerMessage('15551234567', 'wamid.GRP1', { conversation: 'hello group' }, group)] });
    socket.emit('group-participants.update', {
      id: group,
      author: '15551234567@s.whatsapp.net',
      action: 'add',
      participants: [
        { id: '203741966172178@lid', phoneNumber: '15550001111@s.whatsapp.net', admin: null },
        { id: '15550002222@s.whatsapp.net', notify: 'Olga', admin: null },
      ],
    });
    socket.emit('group-participants.update', { id: group, author: '15551234567@s.whatsapp.net', action: 'promote', participants: [{ id: '15550002222@s.whatsapp.net', admin: 'admin' }] });
    socket.emit('group-participants.update', { id: group, author: '15550001111@s.whatsapp.net', action: 'remove', participants: [{ id: '203741966172178@lid', phoneNumber: '15550001111@s.whatsapp.net', admin: null }] });
    socket.emit('groups.update', [{ id: group, desc: 'only a new description', author: '15551234567@s.whatsapp.net' }]);
    socket.emit('groups.update', [{ id: group, subject: 'Sofa buyers', author: '15551234567@s.whatsapp.net' }]);
    const seen = await until(stream, 'group_chat.update', 1);
    expect(added(seen)).toHaveLength(1);
    expect(added(seen)[0]).toMatchObject({ text: 'hello group', recipient: { chat_type: 'whatsgroup', chat_id: '120363025246125486', phone: null, name: null } });
    expect(seen.filter((e) => e.name === 'group_chat.memberships_update').map((e) => e.payload)).toEqual([
      {
        group_id: '120363025246125486',
        members: [
          { group_member_id: '15550001111', name: null, avatar_url: null, status: 'in_group' },
          { group_member_id: '15550002222', name: 'Olga', avatar_url: null, status: 'in_group' },
        ],
      },
      { group_id: '120363025246125486', members: [{ group_member_id: '15550001111', name: null, avatar_url: null, status: 'deleted' }] },
    ]);
    expect(seen.filter((e) => e.name === 'group_chat.update').map((e) => e.payload)).toEqual([{ group_id: '120363025246125486', name: 'Sofa buyers', avatar_url: null }]);
  });
});
