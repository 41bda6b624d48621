import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { startLiveGateway, type TestGateway } from '../testing/harness.ts';
import { startMaxEmulator, type MaxEmulator } from '../testing/max-emulator.ts';
import { databaseKind } from '../testing/test-database.ts';

const TOKEN = 'f9LHodD0cOIEr0gCxuvowdetqQYLt6Ym_videos';
const anna = { user_id: 4242, first_name: 'Anna', last_name: 'Kravets', name: 'Anna Kravets', username: 'anna_k', is_bot: false, last_activity_time: 1_795_000_000_000 };
const dialog = { chat_id: 7_001, chat_type: 'dialog', user_id: 10003, post_id: null };
/** A customer's message with files, as MAX posts it in `message_created`. */
const created = (mid: string, attachments: unknown[], text?: string) => ({
  update_type: 'message_created',
  timestamp: 1_795_000_000_000,
  message: { timestamp: 1_795_000_000_000, sender: anna, recipient: dialog, body: { mid, seq: 1, attachments, text: text ?? null } },
});
/** A video as MAX names it in a message: its page (no direct link to the file) and its token. */
const video = (token: string) => ({ type: 'video', payload: { url: `https://max.ru/watch/${token}`, token }, width: 1280, height: 720, duration: 3 });
/** MP4's first box, then every byte value: a part that mangled them would show. */
const clip = Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypmp42', 'latin1'), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);

describe(`live max bots: customers’ videos behind the gateway’s links (${databaseKind()})`, () => {
  let max: MaxEmulator;
  let t: TestGateway;
  let accountId: string;
  let channelId: string;
  let base: string;

  beforeAll(async () => {
    max = await startMaxEmulator();
    max.addBot(TOKEN, { user_id: 10003, first_name: 'Acme Shop', username: 'acme_shop_bot' });
    ({ t, base } = await startLiveGateway({ MAX_API_URL: max.url, SECRET_KEY: 'k'.repeat(40) }));
    let token: string;
    ({ token, accountId } = await t.newAccount());
    const res = await t.call('POST', '/v2/channels', { token, body: { transport: 'maxbot', credentials: { access_token: TOKEN } } });
    expect(res.statusCode, res.body).toBe(201);
    channelId = res.json().data[0].channel_id;
  });
  afterAll(async () => {
    await t?.close();
    await max?.close();
  });

  /** The attachments of the messages an update made, in order. */
  const attachmentsOf = async (update: unknown) => {
    const stream = eventStream(t.gateway.database, accountId);
    await stream.since();
    expect(await max.deliver(TOKEN, update)).toBe(200);
    return (await stream.since()).filter((e) => e.name === 'message.add').map((e) => (e.payload as { attachment?: { url: string; mimetype?: string } }).attachment ?? null);
  };

  it('records a video by the gateway’s signed link, which streams MAX’s MP4 of it; a picture keeps MAX’s address', async () => {
    max.addVideo('vid-anna_1', clip);
    const [film, picture, words] = await attachmentsOf(
      created('mid.video1', [video('vid-anna_1'), { type: 'image', payload: { photo_id: 1, token: 't1', url: 'https://i.oneme.ru/i?r=receipt' } }], 'Вот видео'),
    );
    expect(film).toEqual({ url: expect.stringMatching(new RegExp(`^${base}/hooks/maxbot/${channelId}/files/vid-anna_1\\?signature=[\\w-]{43}$`)), mimetype: 'video/mp4' });
    expect(film!.url).not.toContain(TOKEN);
    expect(picture).toEqual({ url: 'https://i.oneme.ru/i?r=receipt' });
    expect(words).toBeNull();

    const file = await fetch(film!.url);
    expect(file.status).toBe(200);
    expect([file.headers.get('content-type'), file.headers.get('content-length'), file.headers.get('content-disposition')]).toEqual(['video/mp4', String(clip.length), null]);
    expect(Buffer.from(await file.arrayBuffer()).equals(clip)).toBe(true);
    // MAX was asked with the bot's token, in its header (never in a URL).
    expect(max.calls.filter((c) => c.path === '/videos/vid-anna_1').map((c) => [c.method, c.token, c.query])).toEqual([['GET', TOKEN, {}]]);
  });

  it('refuses an altered link (403), gives 404 for a video MAX does not know and 503 while MAX fails', async () => {
    const [film] = await attachmentsOf(created('mid.video2', [video('vid-anna_2')]));
    const [gone] = await attachmentsOf(created('mid.video3', [video('vid-unknown')]));
    max.addVideo('vid-anna_2', clip);
    const signature = new URL(film!.url).searchParams.get('signature')!;
    const altered = film!.url.replace(signature, `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`);
    expect((await fetch(altered)).status).toBe(403);
    // The signature names its video and channel: under another video's or channel's path it opens nothing.
    expect((await fetch(film!.url.replace('vid-anna_2', 'vid-anna_1'))).status).toBe(403);
    expect((await fetch(film!.url.replace(channelId, '7d1b2a3c-0000-4000-8000-000000000001'))).status).toBe(403);
    const asked = max.calls.length;
    expect((await fetch(gone!.url)).status).toBe(404);
    expect(max.calls.slice(asked).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /videos/vid-unknown']);

    max.failNext('GET /videos/vid-anna_2', 1, 502);
    const failing = await fetch(film!.url);
    expect(failing.status).toBe(503);
    await failing.arrayBuffer();
    const again = await fetch(film!.url);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(clip)).toBe(true);
  });
});
