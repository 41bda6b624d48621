import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TemplateRef } from '../../contract/messages.ts';
import { AppError } from '../core/errors.ts';
import { resolveTemplateForSend } from '../core/templates/resolve-template.ts';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;

const order = {
  name: 'order_shipped',
  language: 'en',
  category: 'UTILITY',
  components: [
    { type: 'header', text: 'Order {{1}}' },
    { type: 'body', text: 'Hello {{2}}, your order {{1}} ships on {{3}}.' },
    { type: 'footer', text: 'Reply STOP to opt out' },
    {
      type: 'buttons',
      buttons: [
        { type: 'quick_reply', text: 'Track' },
        { type: 'url', text: 'Open', url: 'https://shop.example.org/o' },
        { type: 'quick_reply', text: 'Cancel' },
      ],
    },
  ],
};

describe(`business-API templates (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock();
  let account: { accountId: string; token: string };
  let other: { accountId: string; token: string };
  let stream: ReturnType<typeof eventStream>;
  let wapi: string;

  /** A wapi channel made active by following its authorization URL. */
  async function activeWapi(token: string): Promise<string> {
    const { channel_id: id, url } = await channelClient(t, token).create('wapi');
    const page = await t.call('GET', new URL(url!).pathname + new URL(url!).search);
    expect(page.statusCode).toBe(200);
    return id;
  }
  const submit = (channelId: string, body: unknown, token = account.token) =>
    t.call('POST', `/v2/sandbox/channels/${channelId}/templates`, { token, body });
  const moderate = (templateId: string, status: string, token = account.token) =>
    t.call('POST', `/v2/sandbox/templates/${templateId}/moderation`, { token, body: { status } });
  const list = (query = '', token = account.token) => t.call('GET', `/v2/templates${query}`, { token });

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    account = await t.newAccount('Templates');
    other = await t.newAccount('Other');
    stream = eventStream(t.gateway.database, account.accountId);
    wapi = await activeWapi(account.token);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  it('a submitted template is PENDING, listed with its components, and sends no event', async () => {
    const res = await submit(wapi, order);
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      channel_id: wapi,
      name: 'order_shipped',
      language: 'en',
      category: 'UTILITY',
      status: 'PENDING',
      components: order.components,
      updated_at: clock.now().toISOString(),
    });
    expect(await stream.names()).toEqual([]);
    const listed = await list();
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toContainEqual(created);
  });

  it('the platform moderates: each change sends waba_template.status_update, ordered per template; the same status again sends nothing', async () => {
    const id = (await submit(wapi, { ...order, name: 'moderated' })).json().data.id as string;
    clock.advance(60_000);
    const approved = await moderate(id, 'APPROVED');
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({ id, status: 'APPROVED', updated_at: clock.now().toISOString() });
    expect(await stream.since()).toEqual([
      { name: 'waba_template.status_update', payload: { template_id: id, status: 'APPROVED', timestamp: Math.floor(clock.now().getTime() / 1000) } },
    ]);
    const row = await t.gateway.database.db.selectFrom('events').select('ordering_key').where('name', '=', 'waba_template.status_update').executeTakeFirstOrThrow();
    expect(row.ordering_key).toMatch(/^template:[0-9a-f-]{36}$/);

    expect((await moderate(id, 'APPROVED')).json().data.status).toBe('APPROVED');
    expect(await stream.names()).toEqual([]);
    for (const status of ['PAUSED', 'DISABLED', 'PENDING', 'REJECTED']) {
      expect((await moderate(id, status)).json().data.status).toBe(status);
    }
    expect((await stream.since()).map((e) => e.payload.status)).toEqual(['PAUSED', 'DISABLED', 'PENDING', 'REJECTED']);
    expect((await list()).json().data.find((x: { id: string }) => x.id === id).status).toBe('REJECTED');
  });

  it('refuses an unknown moderation status and an unknown template', async () => {
    const id = (await submit(wapi, { ...order, name: 'refusals' })).json().data.id as string;
    expect((await moderate(id, 'OK')).statusCode).toBe(400);
    const missing = await moderate('00000000-0000-4000-8000-000000000000', 'APPROVED');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('TEMPLATE_NOT_FOUND');
  });

  it('templates are only for wapi channels, and names are unique per channel and language', async () => {
    const { channel_id: bot } = await channelClient(t, account.token).create('telegram', { telegram_token: TELEGRAM_TOKEN });
    const res = await submit(bot, { ...order, name: 'on_a_bot' });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.fields).toEqual([{ field: 'channel_id', message: 'only business-API (wapi) channels have templates' }]);
    await submit(wapi, { ...order, name: 'twice' });
    const again = await submit(wapi, { ...order, name: 'twice' });
    expect(again.statusCode).toBe(400);
    expect(again.json().data.fields).toEqual([{ field: 'name', message: 'the channel already has a template of this name and language' }]);
    expect((await submit(wapi, { ...order, name: 'twice', language: 'pt_BR' })).statusCode).toBe(201);
  });

  it('checks the parts of a template as the platform does', async () => {
    const fields = async (components: unknown[]) => (await submit(wapi, { ...order, name: 'parts', components })).json().data?.fields;
    expect(await fields([{ type: 'header', text: 'Hi' }])).toEqual([{ field: 'components', message: 'a template needs a body' }]);
    expect(await fields([{ type: 'body', text: 'Hi {{1}} and {{3}}' }])).toEqual([
      { field: 'components', message: 'variables must be numbered {{1}}, {{2}}… without gaps' },
    ]);
    expect(await fields([{ type: 'body', text: 'Hi' }, { type: 'footer', text: 'Bye {{1}}' }])).toEqual([
      { field: 'components.1.text', message: 'a footer takes no variables' },
    ]);
    expect(await fields([{ type: 'body', text: 'a' }, { type: 'body', text: 'b' }])).toEqual([{ field: 'components.1.type', message: 'a template has at most one body' }]);
    expect(await fields([{ type: 'body', text: 'x'.repeat(20) }, { type: 'header', text: 'h'.repeat(61) }])).toEqual([
      { field: 'components.1.text', message: 'must be at most 60 characters' },
    ]);
    expect(
      await fields([
        { type: 'body', text: 'Hi' },
        { type: 'buttons', buttons: [{ type: 'url', text: 'Go' }, { type: 'quick_reply', text: 'Ok', phone_number: '+79001112233' }] },
      ]),
    ).toEqual([
      { field: 'components.1.buttons.0.url', message: 'is required for url buttons' },
      { field: 'components.1.buttons.1.phone_number', message: 'only phone_number buttons have it' },
    ]);
    const bad = await submit(wapi, { ...order, name: 'Bad Name', language: 'english' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields.map((f: { field: string }) => f.field)).toEqual(['name', 'language']);
  });

  it('lists one channel’s templates with channel_id; another account’s channel is not found', async () => {
    const second = await activeWapi(account.token);
    const own = (await submit(second, { ...order, name: 'second_channel' })).json().data.id as string;
    const filtered = await list(`?channel_id=${second}`);
    expect(filtered.json().data.map((x: { id: string }) => x.id)).toEqual([own]);
    expect((await list()).json().data.map((x: { id: string }) => x.id)).toContain(own);

    const foreign = await activeWapi(other.token);
    const res = await list(`?channel_id=${foreign}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('CHANNEL_NOT_FOUND');
    expect((await list('?channel_id=nope')).statusCode).toBe(400);
  });

  it('another account sees none of them and cannot moderate them', async () => {
    const id = (await submit(wapi, { ...order, name: 'private' })).json().data.id as string;
    expect((await list('', other.token)).json().data).toEqual([]);
    expect((await moderate(id, 'APPROVED', other.token)).statusCode).toBe(404);
    expect((await submit(wapi, { ...order, name: 'intruder' }, other.token)).statusCode).toBe(404);
  });

  it('a sidecar key reads templates but cannot act as the platform', async () => {
    const { token: sidecar } = await t.issueToken(account.accountId, 'sidecar');
    expect((await list('', sidecar)).statusCode).toBe(200);
    expect((await list('', sidecar)).json().data.length).toBeGreaterThan(0);
    const res = await submit(wapi, { ...order, name: 'by_sidecar' }, sidecar);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('FORBIDDEN');
  });

  it('templates of a deleted channel are gone from the list', async () => {
    const doomed = await activeWapi(account.token);
    const id = (await submit(doomed, { ...order, name: 'doomed' })).json().data.id as string;
    expect((await t.call('DELETE', `/v2/channels/${doomed}`, { token: account.token })).statusCode).toBe(200);
    expect((await list()).json().data.map((x: { id: string }) => x.id)).not.toContain(id);
  });

  describe('resolving a template for a send', () => {
    let approved: string;
    const resolve = (ref: TemplateRef, channelId = wapi, accountId = account.accountId) =>
      resolveTemplateForSend(t.gateway.store, accountId, channelId, ref);
    const failure = async (ref: TemplateRef, channelId?: string, accountId?: string) => {
      const err = await resolve(ref, channelId, accountId).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      return { code: (err as AppError).code, status: (err as AppError).status, data: (err as AppError).data };
    };

    beforeAll(async () => {
      approved = (await submit(wapi, { ...order, name: 'to_send' })).json().data.id as string;
      await moderate(approved, 'APPROVED');
    });

    it('renders header, body and footer with the values', async () => {
      const { template, text } = await resolve({ id: approved, values: ['#42', 'Anna', 'Monday'] });
      expect(template.id).toBe(approved);
      expect(text).toBe('Order #42\n\nHello Anna, your order #42 ships on Monday.\n\nReply STOP to opt out');
    });

    it('refuses a values count that does not match the variables', async () => {
      expect(await failure({ id: approved, values: ['#42'] })).toEqual({
        code: 'VALIDATION_ERROR',
        status: 400,
        data: { fields: [{ field: 'template.values', message: 'the template takes 3 values; 1 were given' }] },
      });
      expect((await failure({ id: approved })).data).toEqual({ fields: [{ field: 'template.values', message: 'the template takes 3 values; 0 were given' }] });
    });

    it('binds payloads to the quick-reply buttons in order, and refuses what does not fit', async () => {
      const values = ['1', '2', '3'];
      await expect(resolve({ id: approved, values, buttons: [{ payload: 'track-1' }] })).resolves.toMatchObject({ template: { id: approved } });
      await expect(resolve({ id: approved, values, buttons: [{ text: 'Track', type: 'QUICK_REPLY', payload: 'a' }, { text: 'Cancel', payload: 'b' }] })).resolves.toBeTruthy();
      expect((await failure({ id: approved, values, buttons: [{ payload: 'a' }, { payload: 'b' }, { payload: 'c' }] })).data).toEqual({
        fields: [{ field: 'template.buttons', message: 'the template has 2 quick-reply buttons; 3 payloads were given' }],
      });
      expect((await failure({ id: approved, values, buttons: [{ payload: 'a' }, { text: 'Open', type: 'url', payload: 'b' }] })).data).toEqual({
        fields: [
          { field: 'template.buttons.1.text', message: 'must be the template button\'s text "Cancel"' },
          { field: 'template.buttons.1.type', message: 'must be quick_reply: only quick-reply buttons carry payloads' },
        ],
      });
    });

    it('a template that is not approved cannot be sent (409)', async () => {
      const pending = (await submit(wapi, { ...order, name: 'not_yet' })).json().data.id as string;
      expect(await failure({ id: pending, values: ['1', '2', '3'] })).toEqual({
        code: 'TEMPLATE_NOT_APPROVED',
        status: 409,
        data: { template_id: pending, status: 'PENDING' },
      });
      await moderate(pending, 'APPROVED');
      await moderate(pending, 'PAUSED');
      expect((await failure({ id: pending, values: ['1', '2', '3'] })).data).toEqual({ template_id: pending, status: 'PAUSED' });
    });

    it('an unknown template, another channel’s or another account’s is not found', async () => {
      const values = ['1', '2', '3'];
      expect((await failure({ id: '00000000-0000-4000-8000-000000000000', values })).code).toBe('TEMPLATE_NOT_FOUND');
      const otherChannel = await activeWapi(account.token);
      expect(await failure({ id: approved, values }, otherChannel)).toMatchObject({ code: 'TEMPLATE_NOT_FOUND', status: 404 });
      expect((await failure({ id: approved, values }, wapi, other.accountId)).code).toBe('TEMPLATE_NOT_FOUND');
    });
  });
});
