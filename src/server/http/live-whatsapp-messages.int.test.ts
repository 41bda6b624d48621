import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { settled, statusTrail } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import { ANNA, NUMBER, WABA_ID, connectWhatsAppChannel, startWhatsAppSetup, type WhatsAppSetup } from '../testing/whatsapp-fixture.ts';

const TEMPLATE = {
  id: '7001',
  name: 'order_ready',
  language: 'ru',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Заказ {{1}}' },
    { type: 'BODY', text: 'Здравствуйте, {{1}}! Заказ можно забрать до {{2}}.' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Сайт', url: 'https://shop.example.com' }, { type: 'QUICK_REPLY', text: 'Спасибо' }] },
  ],
};
const MEDIA_HEADER = { id: '7002', name: 'promo_picture', language: 'en', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Sale!' }] };

describe(`live whatsapp: receiving and sending (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: WhatsAppSetup;
  let channelId: string;

  beforeAll(async () => {
    s = await startWhatsAppSetup({ clock });
    s.meta.setTemplates(WABA_ID, [TEMPLATE, MEDIA_HEADER]);
    channelId = await connectWhatsAppChannel(s);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.meta.close();
  });

  const send = async (body: Record<string, unknown>) => {
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: ANNA.waId }, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { request_id: string; warnings?: string[] };
  };
  const sends = () => s.meta.calls.filter((c) => c.method === 'POST' && c.path === `/${NUMBER.id}/messages`);
  const stored = async (requestId: string) =>
    (await sql<{ id: string; wamid: string }>`select id, messenger_message_id as wamid from messages where request_id = ${requestId}`.execute(s.t.gateway.database.db)).rows[0]!;

  it('answers Meta’s check of /hooks/whatsapp with the verify token, and turns away posts the app did not sign', async () => {
    expect(await s.meta.webhooks.verify()).toEqual({ status: 200, body: '1158201444' });
    expect((await s.meta.webhooks.verify('another-verify-token')).status).toBe(403);
    const body = { object: 'whatsapp_business_account', entry: [{ id: WABA_ID, changes: [] }] };
    expect(await s.meta.webhooks.post(body, { signature: null })).toBe(401);
    expect(await s.meta.webhooks.post(body, { signature: `sha256=${'0'.repeat(64)}` })).toBe(401);
  });

  it('lists the account’s templates read on connect, each with an id of the gateway’s, leaving out what a send could not fill', async () => {
    const listed = (await s.t.call('GET', `/v2/templates?channel_id=${channelId}`, { token: s.token })).json().data;
    expect(listed).toEqual([
      expect.objectContaining({
        name: 'order_ready',
        language: 'ru',
        status: 'APPROVED',
        category: 'UTILITY',
        components: [
          { type: 'header', text: 'Заказ {{1}}' },
          { type: 'body', text: 'Здравствуйте, {{2}}! Заказ можно забрать до {{3}}.' },
          { type: 'buttons', buttons: [{ type: 'url', text: 'Сайт', url: 'https://shop.example.com' }, { type: 'quick_reply', text: 'Спасибо' }] },
        ],
      }),
    ]);
  });

  it('subscribes a channel registered under other settings again in the hook refresh, and reads its templates again with it', async () => {
    const subscriptions = () => s.meta.calls.filter((c) => c.method === 'POST' && c.path === `/${WABA_ID}/subscribed_apps`).length;
    const statusOf = async (name: string) =>
      ((await s.t.call('GET', `/v2/templates?channel_id=${channelId}`, { token: s.token })).json().data as { name: string; status: string }[]).find((t) => t.name === name)?.status;
    // Registered as an earlier release registered it (or never marked): the refresh takes it up.
    const outdated = () => sql`update channels set hook_fingerprint = null where id = ${channelId}`.execute(s.t.gateway.database.db);
    const before = subscriptions();
    s.meta.setTemplates(WABA_ID, [{ ...TEMPLATE, status: 'PAUSED' }, MEDIA_HEADER]);
    await outdated();
    expect(await s.t.gateway.botHooks.refresh()).toMatchObject({ refreshed: 1, failed: 0 });
    expect(subscriptions()).toBe(before + 1);
    expect(s.meta.subscribed(WABA_ID)).toBe(true);
    expect(await statusOf('order_ready')).toBe('PAUSED');
    // Up to date now: the next pass leaves it.
    expect(await s.t.gateway.botHooks.refresh()).toMatchObject({ refreshed: 0 });
    expect(subscriptions()).toBe(before + 1);
    // As it was, for the tests after this one.
    s.meta.setTemplates(WABA_ID, [TEMPLATE, MEDIA_HEADER]);
    await outdated();
    expect(await s.t.gateway.botHooks.refresh()).toMatchObject({ refreshed: 1 });
    expect(await statusOf('order_ready')).toBe('APPROVED');
  });

  it('records a customer’s text once however often Meta posts it, in a whatsapp chat of their number and name', async () => {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const { wamid, status } = await s.meta.customerWrites(WABA_ID, NUMBER.id, ANNA, { type: 'text', text: { body: 'Здравствуйте!' } });
    expect(status).toBe(200);
    await s.meta.customerWrites(WABA_ID, NUMBER.id, ANNA, { type: 'text', text: { body: 'Здравствуйте!' } }, wamid);
    const added = (await stream.since()).filter((e) => e.name === 'message.add');
    expect(added).toHaveLength(1);
    expect(added[0]!.payload).toMatchObject({ direction: 'inbound', text: 'Здравствуйте!', recipient: { chat_type: 'whatsapp', chat_id: ANNA.waId, name: 'Anna' } });
    // Another number's post (no channel has it) is taken and dropped.
    expect(await s.meta.postChange(WABA_ID, 'messages', { messaging_product: 'whatsapp', metadata: { phone_number_id: '999', display_phone_number: '1' }, messages: [{ from: ANNA.waId, id: 'wamid.x', timestamp: '1700000000', type: 'text', text: { body: 'x' } }] })).toBe(200);
    expect(await stream.since()).toEqual([]);
  });

  it('gives a customer’s picture behind a link of the gateway’s that fetches it with the number’s token, its caption after it', async () => {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const mediaId = s.meta.addMedia(Buffer.from('JPEG-bytes'), 'image/jpeg');
    await s.meta.customerWrites(WABA_ID, NUMBER.id, ANNA, { type: 'image', image: { id: mediaId, mime_type: 'image/jpeg', caption: 'Вот фото' } });
    const [picture, caption] = (await stream.since()).map((e) => e.payload as { attachment?: { url: string; mimetype: string }; text?: string });
    expect(picture!.attachment).toMatchObject({ mimetype: 'image/jpeg' });
    expect(picture!.attachment!.url).toMatch(new RegExp(`^${s.base}/hooks/wapi/${channelId}/files/${mediaId}\\?signature=`));
    expect(caption!.text).toBe('Вот фото');
    const file = await fetch(picture!.attachment!.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('image/jpeg');
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('JPEG-bytes');
    // A player's part of the file is passed to Meta's media server and comes back as a part.
    const part = await fetch(picture!.attachment!.url, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 0-3/10');
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('JPEG');
    expect((await fetch(picture!.attachment!.url.replace(/signature=.{4}/, 'signature=AAAA'))).status).toBe(403);
  });

  it('sends a text, a file by link, a quote and a keyboard (a list past 3 buttons, what is dropped in warnings); a press comes back quoting its message', async () => {
    const text = await send({ text: 'Ваш заказ готов' });
    expect(await settled(s.t, text.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(sends().at(-1)!.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: ANNA.waId, type: 'text', text: { body: 'Ваш заказ готов', preview_url: false } });
    expect((await stored(text.request_id)).wamid).toMatch(/^wamid\./);

    const file = await send({ attachment: { url: s.meta.hostFile('invoice.pdf'), name: 'Счёт.pdf' } });
    expect(await settled(s.t, file.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(sends().at(-1)!.body).toMatchObject({ type: 'document', document: { link: s.meta.hostFile('invoice.pdf'), filename: 'Счёт.pdf' } });
    const missing = await send({ attachment: { url: 'https://files.example.com/gone.jpg' } });
    expect(await settled(s.t, missing.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'can_not_get_content' });

    const quoting = await send({ text: 'Это ответ', quoted_message_id: (await stored(text.request_id)).id });
    expect(await settled(s.t, quoting.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(sends().at(-1)!.body).toMatchObject({ context: { message_id: (await stored(text.request_id)).wamid } });

    const three = await send({ text: 'Как доставить?', keyboard: { buttons: [{ text: 'Курьер', payload: 'courier' }, { text: 'Самовывоз', payload: 'pickup' }, { text: 'Почта', payload: 'post' }] } });
    expect(await settled(s.t, three.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(sends().at(-1)!.body).toMatchObject({
      type: 'interactive',
      interactive: { type: 'button', body: { text: 'Как доставить?' }, action: { buttons: [{ type: 'reply', reply: { id: 'courier', title: 'Курьер' } }, { reply: { id: 'pickup' } }, { reply: { id: 'post' } }] } },
    });
    const many = await send({ text: 'Выберите время', keyboard: { buttons: Array.from({ length: 12 }, (_, i) => ({ text: `${9 + i}:00`, payload: `slot-${i}` })) } });
    expect(many.warnings).toEqual(['keyboard.buttons: 2 buttons beyond the first 10 were dropped']);
    expect(await settled(s.t, many.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    const list = sends().at(-1)!.body as { interactive: { type: string; action: { sections: { rows: { id: string; title: string }[] }[] } } };
    expect(list.interactive.type).toBe('list');
    expect(list.interactive.action.sections[0]!.rows).toHaveLength(10);
    expect(list.interactive.action.sections[0]!.rows[0]).toEqual({ id: 'slot-0', title: '9:00' });
    const withFile = await send({ attachment: { url: s.meta.hostFile('map.png') }, keyboard: { buttons: [{ text: 'Ok', payload: 'ok' }] } });
    expect(withFile.warnings).toEqual(['keyboard: not sent: business-API buttons go with a text only, not with a file or a template']);
    expect(await settled(s.t, withFile.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(sends().at(-1)!.body).toMatchObject({ type: 'image', image: { link: s.meta.hostFile('map.png') } });

    // The customer presses a button: its words, quoting the message it was on.
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const onMessage = await stored(three.request_id);
    await s.meta.customerWrites(WABA_ID, NUMBER.id, ANNA, { type: 'interactive', context: { from: '15550100001', id: onMessage.wamid }, interactive: { type: 'button_reply', button_reply: { id: 'pickup', title: 'Самовывоз' } } });
    expect((await stream.since()).map((e) => e.payload)).toEqual([expect.objectContaining({ direction: 'inbound', text: 'Самовывоз', quoted_message_id: onMessage.id })]);
  });

  it('sends a template by its id, its values in the header and body, its quick reply’s payload', async () => {
    const template = (await s.t.call('GET', `/v2/templates?channel_id=${channelId}`, { token: s.token })).json().data[0] as { id: string };
    const sent = await send({ template: { id: template.id, values: ['№ 42', 'Анна', '20:00'], buttons: [{ payload: 'thanks-42' }] } });
    expect(await settled(s.t, sent.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    expect(sends().at(-1)!.body).toMatchObject({
      type: 'template',
      template: {
        name: 'order_ready',
        language: { policy: 'deterministic', code: 'ru' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: '№ 42' }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Анна' }, { type: 'text', text: '20:00' }] },
          { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload', payload: 'thanks-42' }] },
        ],
      },
    });
  });

  it('moves a send forward by Meta’s reports only, a failed one with Meta’s reason', async () => {
    const { request_id: requestId } = await send({ text: 'Доставлено?' });
    await settled(s.t, requestId, ['sent', 'failed']);
    const { wamid } = await stored(requestId);
    await s.meta.status(WABA_ID, NUMBER.id, wamid, 'delivered');
    await s.meta.status(WABA_ID, NUMBER.id, wamid, 'read');
    await s.meta.status(WABA_ID, NUMBER.id, wamid, 'delivered');
    expect(await statusTrail(s.t, requestId)).toEqual(['sent', 'delivered', 'read']);
    const other = await send({ text: 'Не дойдёт' });
    await settled(s.t, other.request_id, ['sent', 'failed']);
    await s.meta.status(WABA_ID, NUMBER.id, (await stored(other.request_id)).wamid, 'failed', { errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'Message Undeliverable.' } }] });
    expect(await statusTrail(s.t, other.request_id)).toEqual(['sent', 'failed:waba_message_undeliverable']);
  });

  it('maps Meta’s refusals: outside the 24-hour window, marketing opt-out, payment; a rate limit tried again after Meta’s wait', async () => {
    s.meta.closeWindow(ANNA.waId);
    const late = await send({ text: 'Вы здесь?' });
    expect(await settled(s.t, late.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'over_24_hour_limit' });
    for (const [code, reason] of [[131050, 'stop_receiving_marketing_messages'], [131042, 'wapi_not_enough_money'], [131049, 'waba_limit_marketing_template_sending']] as const) {
      s.meta.failNext(`POST /${NUMBER.id}/messages`, 1, { code, message: 'refused' });
      const refused = await send({ template: { id: ((await s.t.call('GET', '/v2/templates', { token: s.token })).json().data[0] as { id: string }).id, values: ['1', '2', '3'] } });
      expect(await settled(s.t, refused.request_id, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason });
    }
    s.meta.failNext(`POST /${NUMBER.id}/messages`, 1, { status: 429, code: 130429, message: 'Rate limit hit', headers: { 'retry-after': '30' } });
    const refusedAt = clock.now().getTime();
    const throttled = await send({ template: { id: ((await s.t.call('GET', '/v2/templates', { token: s.token })).json().data[0] as { id: string }).id, values: ['1', '2', '3'] } });
    const due = await eventually(async () => {
      const { rows } = await sql<{ send_after: Date | null }>`select send_after from messages where request_id = ${throttled.request_id}`.execute(s.t.gateway.database.db);
      return rows[0]?.send_after ?? undefined;
    });
    expect(due.getTime() - refusedAt).toBe(30_000);
    clock.advance(30_000);
    s.t.gateway.wakeSends();
    expect(await settled(s.t, throttled.request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
  });

  it('changes a template’s status and the tier as Meta posts them, and switches the channel off for a revoked token or a ban', async () => {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const template = (await s.t.call('GET', `/v2/templates?channel_id=${channelId}`, { token: s.token })).json().data[0] as { id: string };
    expect(await s.meta.postChange(WABA_ID, 'message_template_status_update', { event: 'PAUSED', message_template_id: 7001, message_template_name: 'order_ready', message_template_language: 'ru' })).toBe(200);
    // A template made in WhatsApp Manager since: the account's templates are read again.
    s.meta.setTemplates(WABA_ID, [{ ...TEMPLATE, status: 'PAUSED' }, { id: '7003', name: 'welcome', language: 'en', status: 'PENDING', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hi!' }] }]);
    await s.meta.postChange(WABA_ID, 'message_template_status_update', { event: 'PENDING', message_template_id: 7003, message_template_name: 'welcome', message_template_language: 'en' });
    await s.meta.postChange(WABA_ID, 'phone_number_quality_update', { display_phone_number: '15550100001', event: 'UPGRADE', current_limit: 'TIER_10K' });
    const events = (await stream.since()).map((e) => [e.name, e.payload]);
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        ['waba_template.status_update', expect.objectContaining({ template_id: template.id, status: 'PAUSED' })],
        ['channel.waba_tier_update', { channel_id: channelId, tier: 'TIER_10K' }],
      ]),
    );
    expect(((await s.t.call('GET', `/v2/templates?channel_id=${channelId}`, { token: s.token })).json().data as { name: string }[]).map((t) => t.name)).toEqual(['order_ready', 'welcome']);

    await s.meta.postChange(WABA_ID, 'account_update', { event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: 'DISABLE', waba_ban_date: '2030-01-01' } });
    expect((await s.t.call('GET', `/v2/channels/${channelId}`, { token: s.token })).json().data[0]).toMatchObject({ status: 'disabled', reason: 'blocked' });
  });

  it('switches a channel off when Meta no longer takes its token', async () => {
    s.meta.addAccount('102290129340400', [{ id: '110200345501444', display_phone_number: '+1 555-010-0004', verified_name: 'Acme Kiosk', platform_type: 'CLOUD_API' }]);
    const again = await connectWhatsAppChannel(s, '102290129340400');
    const token = (s.t.gateway.channels.cipher.open((await sql<{ credentials: string }>`select credentials from channels where id = ${again}`.execute(s.t.gateway.database.db)).rows[0]!.credentials) as { business_token: string }).business_token;
    s.meta.revoke(token);
    const res = await s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: again, recipient: { chat_type: 'whatsapp', chat_id: ANNA.waId }, text: 'Hello?' } });
    const { request_id: requestId } = res.json().data as { request_id: string };
    expect(await settled(s.t, requestId, ['sent', 'failed'])).toMatchObject({ status: 'failed', reason: 'session_revoked' });
    expect((await s.t.call('GET', `/v2/channels/${again}`, { token: s.token })).json().data[0]).toMatchObject({ status: 'disabled', reason: 'unauthorized' });
  });
});
