import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream } from '../testing/event-stream.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';
import { WABA_ID, channelView, connectWhatsAppChannel, createWhatsAppChannel, startWhatsAppSetup, type WhatsAppSetup } from '../testing/whatsapp-fixture.ts';

const OTHER_WABA = '102290129340399';
const OTHER_NUMBER = { id: '110200345501443', display_phone_number: '+1 555-010-0002', verified_name: 'Acme Outlet', messaging_limit_tier: 'TIER_250', platform_type: 'CLOUD_API' as const };

/** `/v2/templates/waba` on live wapi channels: Meta's message-template API moderates, as WhatsApp Manager would. */
describe(`live whatsapp: business-API templates submitted to Meta (${databaseKind()})`, () => {
  const clock = new ManualClock(Date.now());
  let s: WhatsAppSetup;
  let shop: string;
  let outlet: string;

  beforeAll(async () => {
    s = await startWhatsAppSetup({ clock });
    s.meta.addAccount(OTHER_WABA, [OTHER_NUMBER]);
    shop = await connectWhatsAppChannel(s);
    outlet = await connectWhatsAppChannel(s, OTHER_WABA);
  });
  afterAll(async () => {
    await s?.t.close();
    await s?.meta.close();
  });

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await s.t.call(method, url, { token: s.token, body });
    return { status: res.statusCode, body: res.json() };
  };
  const submit = (title: string, channels: string[], components: unknown[]) =>
    call('POST', '/v2/templates/waba', { template: { title, waba: { waba_id: WABA_ID, waba_name: 'Acme' }, channels, category: 'UTILITY', language: 'en', components }, is_draft: false });
  const templateCalls = () => s.meta.calls.filter((c) => c.path.includes('message_templates') || /^\/7\d{11}$/.test(c.path)).map((c) => `${c.method} ${c.path}`);
  const listedCount = async () => ((await call('GET', '/v2/templates')).body.data as unknown[]).length;

  it('submits a new template once per WhatsApp Business Account, in Meta’s numbering, and follows Meta’s verdicts', async () => {
    const stream = eventStream(s.t.gateway.database, s.accountId);
    const before = s.meta.calls.length;
    const created = await submit('Order Shipped', [shop, outlet], [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-17'] } },
      { type: 'BODY', text: 'Hello {{2}}, your order ships {{3}}.', example: { body_text: [['Anna', 'today']] } },
      { type: 'FOOTER', text: 'Acme' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://acme.example/track' }] },
    ]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'order_shipped', status: 'PENDING' });
    expect([...created.body.data.channels].sort()).toEqual([shop, outlet].sort());
    const id = created.body.data.id as string;
    const posted = s.meta.calls.slice(before).filter((c) => c.method === 'POST');
    expect(posted.map((c) => c.path)).toEqual([`/${WABA_ID}/message_templates`, `/${OTHER_WABA}/message_templates`]);
    expect(posted[0]!.body).toEqual({
      name: 'order_shipped',
      language: 'en',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A-17'] } },
        { type: 'BODY', text: 'Hello {{1}}, your order ships {{2}}.', example: { body_text: [['Anna', 'today']] } },
        { type: 'FOOTER', text: 'Acme' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://acme.example/track' }] },
      ],
    });
    await stream.since();

    expect(await s.meta.review(WABA_ID, 'order_shipped', 'en', 'APPROVED')).toBe(200);
    const halfway = (await call('GET', `/v2/templates/waba/${id}`)).body.data;
    const statusOn = (channelId: string) => halfway.templates.find((t: { channel_id: string }) => t.channel_id === channelId).status;
    expect([statusOn(shop), statusOn(outlet)]).toEqual(['APPROVED', 'PENDING']);
    expect(halfway.status).toBe('PENDING');
    expect(await s.meta.review(OTHER_WABA, 'order_shipped', 'en', 'APPROVED')).toBe(200);
    expect((await call('GET', `/v2/templates/waba/${id}`)).body.data.status).toBe('APPROVED');
    expect((await stream.since()).map((e) => [e.name, e.payload.status])).toEqual([
      ['waba_template.status_update', 'APPROVED'],
      ['waba_template.status_update', 'APPROVED'],
    ]);
    // The hook refresh reading the accounts' templates finds the same ones: nothing doubles, nothing is removed.
    await sql`update channels set hook_fingerprint = null where id in (${shop}, ${outlet})`.execute(s.t.gateway.database.db);
    expect(await s.t.gateway.botHooks.refresh()).toMatchObject({ refreshed: 2, failed: 0 });
    expect(await listedCount()).toBe(2);
    expect((await call('GET', `/v2/templates/waba/${id}`)).body.data).toMatchObject({ status: 'APPROVED', components: expect.arrayContaining([{ type: 'BODY', text: 'Hello {{2}}, your order ships {{3}}.' }]) });
  });

  it('submits an edit to Meta, back to review, and deletes the template there (that language only)', async () => {
    const created = await submit('Pickup', [shop], [{ type: 'BODY', text: 'Ready at {{1}}', example: { body_text: [['noon']] } }]);
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const atMeta = () => s.meta.templates(WABA_ID).find((t) => t.name === 'pickup' && t.language === 'en');
    expect(atMeta()).toMatchObject({ status: 'PENDING' });
    await s.meta.review(WABA_ID, 'pickup', 'en', 'APPROVED');
    s.meta.templates(WABA_ID).push({ id: '799999999999', name: 'pickup', language: 'es', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Listo' }] });

    const edited = await call('PATCH', `/v2/templates/waba/${id}`, { template: { components: [{ type: 'BODY', text: 'Ready at {{1}} sharp', example: { body_text: [['noon']] } }] } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ status: 'PENDING', components: [{ type: 'BODY', text: 'Ready at {{1}} sharp' }] });
    expect(atMeta()).toMatchObject({ status: 'PENDING', components: [{ type: 'BODY', text: 'Ready at {{1}} sharp', example: { body_text: [['noon']] } }] });
    expect(templateCalls().slice(-2)).toEqual([`GET /${WABA_ID}/message_templates`, `POST /${atMeta()!.id}`]);

    expect((await call('DELETE', `/v2/templates/waba/${id}`)).status).toBe(200);
    const deleted = s.meta.calls.at(-1)!;
    expect([deleted.method, deleted.path, deleted.query.name]).toEqual(['DELETE', `/${WABA_ID}/message_templates`, 'pickup']);
    expect(atMeta()).toBeUndefined();
    expect(s.meta.templates(WABA_ID).map((t) => `${t.name}/${t.language}`)).toContain('pickup/es');
    expect((await call('GET', `/v2/templates/waba/${id}`)).status).toBe(404);
  });

  it('answers Meta’s refusals as the API’s errors, storing nothing', async () => {
    const count = await listedCount();
    s.meta.templates(WABA_ID).push({ id: '799999999998', name: 'promo', language: 'en', status: 'APPROVED', category: 'MARKETING', components: [{ type: 'BODY', text: 'Sale' }] });
    const taken = await submit('Promo', [shop], [{ type: 'BODY', text: 'Sale!' }]);
    expect(taken).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR', data: { fields: [{ field: 'template.title', message: expect.stringContaining('already') }] } } });
    const noExample = await submit('Greeting', [shop], [{ type: 'BODY', text: 'Hi {{1}}' }]);
    expect(noExample).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR', data: { fields: [{ field: 'template', message: expect.stringContaining('sample values') }] } } });
    s.meta.failNext(`POST /${WABA_ID}/message_templates`, 1, { status: 500, code: 2, message: 'Service temporarily unavailable' });
    expect((await submit('Greeting', [shop], [{ type: 'BODY', text: 'Hi' }])).status).toBe(503);
    s.meta.failNext(`POST /${WABA_ID}/message_templates`, 1, { code: 80007, message: 'Rate limit hit' });
    expect((await submit('Greeting', [shop], [{ type: 'BODY', text: 'Hi' }])).body.error).toBe('TOO_MANY_REQUESTS');
    s.meta.failNext(`POST /${WABA_ID}/message_templates`, 1, { status: 403, code: 200, message: 'Permissions error' });
    expect((await submit('Greeting', [shop], [{ type: 'BODY', text: 'Hi' }])).body.error).toBe('FORBIDDEN');
    expect(await listedCount()).toBe(count);
    // A channel still waiting for its number has no account to submit to.
    const { channelId: waiting } = await createWhatsAppChannel(s);
    expect((await submit('Greeting', [waiting], [{ type: 'BODY', text: 'Hi' }])).body.error).toBe('CHANNEL_WRONG_STATUS');
  });

  it('switches a channel off whose token Meta no longer takes, answering that it must be reconnected', async () => {
    s.meta.failNext(`POST /${OTHER_WABA}/message_templates`, 1, { status: 401, code: 190, message: 'Error validating access token' });
    const refused = await submit('Farewell', [outlet], [{ type: 'BODY', text: 'Bye' }]);
    expect(refused).toMatchObject({ status: 409, body: { error: 'CHANNEL_WRONG_STATUS' } });
    expect(await channelView(s, outlet)).toMatchObject({ status: 'disabled' });
  });
});
