import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { openFrame } from '../testing/frames.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { settled } from '../testing/messaging.ts';
import { databaseKind } from '../testing/test-database.ts';
import type { EmulatedTemplate } from '../testing/whatsapp-emulator.ts';
import { ANNA, WABA_ID, connectWhatsAppChannel, startWhatsAppSetup, type WhatsAppSetup } from '../testing/whatsapp-fixture.ts';

const template = (id: string, name: string, text: string): EmulatedTemplate => ({ id, name, language: 'en', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text }] });
const ORDER = template('7101', 'order_ready', 'Order {{1}} is ready');
const WELCOME = template('7102', 'welcome', 'Welcome!');
const REMINDER = template('7103', 'reminder', 'See you at {{1}}');

/** Templates deleted in Meta's WhatsApp Manager: no longer offered nor sent; what was sent with them stays as it was. */
describe(`live whatsapp: templates Meta deleted (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: WhatsAppSetup;
  let channelId: string;

  beforeAll(async () => {
    s = await startWhatsAppSetup({ clock });
    s.meta.setTemplates(WABA_ID, [ORDER, WELCOME, REMINDER]);
    channelId = await connectWhatsAppChannel(s);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.meta.close();
  });

  const listed = async () => ((await s.t.call('GET', `/v2/templates?channel_id=${channelId}`, { token: s.token })).json().data as { id: string; name: string }[]);
  const idOf = async (name: string) => (await listed()).find((t) => t.name === name)!.id;
  const sendTemplate = (id: string, values: string[]) =>
    s.t.call('POST', '/v2/messages', { token: s.token, body: { channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: ANNA.waId }, template: { id, values } } });
  /** The hook refresh reads the account's templates again (the channel marked as registered under other settings). */
  const refresh = async () => {
    await sql`update channels set hook_fingerprint = null where id = ${channelId}`.execute(s.t.gateway.database.db);
    expect(await s.t.gateway.botHooks.refresh()).toMatchObject({ refreshed: 1, failed: 0 });
  };

  it('drops a template the account no longer lists from GET /v2/templates and the chat frame, refuses sends of it, and keeps what was sent with it', async () => {
    const orderId = await idOf('order_ready');
    const sent = await sendTemplate(orderId, ['A-17']);
    expect(sent.statusCode, sent.body).toBe(201);
    const { request_id: requestId } = sent.json().data as { request_id: string };
    expect(await settled(s.t, requestId, ['sent', 'failed'])).toMatchObject({ status: 'sent' });
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();

    s.meta.setTemplates(WABA_ID, [WELCOME, REMINDER]);
    await refresh();
    expect((await listed()).map((t) => t.name)).toEqual(['reminder', 'welcome']);
    const frame = await openFrame(s.t, s.token, 'chats', { user: { id: 'agent' }, scope: 'global' });
    expect(((await s.t.call('GET', '/bff/templates', { token: frame })).json().data as { name: string }[]).map((t) => t.name)).toEqual(['reminder', 'welcome']);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([['waba_template.status_update', expect.objectContaining({ template_id: orderId, status: 'DISABLED' })]]);
    const refused = await sendTemplate(orderId, ['A-18']);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ error: 'TEMPLATE_NOT_FOUND', data: { template_id: orderId } });
    expect((await s.t.call('GET', `/bff/templates?channel_id=${channelId}`, { token: frame })).json().data).toHaveLength(2);

    // The message sent with it keeps its own copy: it reads as the customer read it in the chat frame, and the export names it.
    const chatRef = ((await s.t.call('GET', '/bff/chats', { token: frame })).json().data.chats as { chat_id: string; chat_ref: string }[]).find((c) => c.chat_id === ANNA.waId)!.chat_ref;
    const history = (await s.t.call('GET', `/bff/chats/${chatRef}/messages`, { token: frame })).json().data.messages as { template: unknown }[];
    expect(history.at(-1)!.template).toEqual({ id: orderId, values: ['A-17'], text: 'Order A-17 is ready' });
    const day = 24 * 60 * 60_000;
    const task = await s.t.call('POST', '/v2/messages/messages_dump', { token: s.token, body: { start_at: new Date(clock.now().getTime() - day).toISOString(), end_at: new Date(clock.now().getTime() + day).toISOString() } });
    expect(task.statusCode, task.body).toBe(201);
    const url = await eventually(async () => {
      const data = (await s.t.call('GET', `/v2/messages/messages_dump/${task.json().data.export_id as string}`, { token: s.token })).json().data as { status: string; url: string | null };
      return data.status === 'done' ? data.url! : undefined;
    });
    const [header, ...rows] = parse((await s.t.call('GET', new URL(url).pathname + new URL(url).search)).body, { bom: true }) as string[][];
    const column = (name: string) => header!.indexOf(name);
    expect(rows.map((r) => [r[column('template_id')], r[column('status')]])).toContainEqual([orderId, 'sent']);
  });

  it('drops a template Meta announces deleted, without reading the account’s templates again', async () => {
    const welcomeId = await idOf('welcome');
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    const reads = () => s.meta.calls.filter((c) => c.path === `/${WABA_ID}/message_templates`).length;
    const before = reads();
    expect(await s.meta.postChange(WABA_ID, 'message_template_status_update', { event: 'DELETED', message_template_id: 7102, message_template_name: 'welcome', message_template_language: 'en', reason: null })).toBe(200);
    expect((await listed()).map((t) => t.name)).toEqual(['reminder']);
    expect((await stream.since()).map((e) => [e.name, e.payload])).toEqual([['waba_template.status_update', expect.objectContaining({ template_id: welcomeId, status: 'DISABLED' })]]);
    expect((await sendTemplate(welcomeId, [])).json()).toMatchObject({ error: 'TEMPLATE_NOT_FOUND' });
    // Announced again (Meta posts at least once): nothing more happens.
    expect(await s.meta.postChange(WABA_ID, 'message_template_status_update', { event: 'DELETED', message_template_id: 7102, message_template_name: 'welcome', message_template_language: 'en' })).toBe(200);
    expect(await stream.since()).toEqual([]);
    expect(reads()).toBe(before);
  });

  it('keeps a template Meta still lists in a form the interface cannot carry (an image header, a status it does not know) as it was', async () => {
    const before = (await listed()).find((t) => t.name === 'reminder')!;
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();

    // Edited in WhatsApp Manager to show a picture above the text: still live at Meta, so neither removed nor disabled.
    s.meta.setTemplates(WABA_ID, [{ ...REMINDER, components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2U='] } }, ...REMINDER.components] }]);
    await refresh();
    expect(await listed()).toEqual([before]);
    expect(before).toMatchObject({ status: 'APPROVED' });
    const sent = await sendTemplate(before.id, ['9:00']);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await settled(s.t, (sent.json().data as { request_id: string }).request_id, ['sent', 'failed'])).toMatchObject({ status: 'sent' });

    // A status Meta may add later, unknown here: the template stays with the status it had.
    s.meta.setTemplates(WABA_ID, [{ ...REMINDER, status: 'UNDER_SOME_NEW_REVIEW' }]);
    await refresh();
    expect(await listed()).toEqual([before]);
    expect((await stream.since()).filter((e) => e.name === 'waba_template.status_update')).toEqual([]);
  });

  it('drops a template Meta still lists as deleted in WhatsApp Manager (PENDING_DELETION), and one it disabled first with no second event', async () => {
    const reminderId = await idOf('reminder');
    s.meta.setTemplates(WABA_ID, [{ ...REMINDER, status: 'PENDING_DELETION' }]);
    await refresh();
    expect(await listed()).toEqual([]);
    expect((await sendTemplate(reminderId, ['9:00'])).statusCode).toBe(404);

    // Made again under the same name: another template, with another id; disabled, then deleted: one event only.
    s.meta.setTemplates(WABA_ID, [{ ...REMINDER, id: '7104', status: 'DISABLED' }]);
    await refresh();
    const again = await listed();
    expect(again).toEqual([expect.objectContaining({ name: 'reminder', status: 'DISABLED' })]);
    expect(again[0]!.id).not.toBe(reminderId);
    const stream = eventStream(s.t.gateway.database, s.accountId);
    await stream.since();
    s.meta.setTemplates(WABA_ID, []);
    await refresh();
    expect(await listed()).toEqual([]);
    expect(await stream.since()).toEqual([]);
  });
});
