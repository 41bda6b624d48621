import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportColumns } from '../../contract/exports.ts';
import { buildExport, purgeExport } from '../core/exports/build-export.ts';
import { exportWebhookOutcome } from '../core/exports/exports.ts';
import type { ExportRecord } from '../core/exports/ports.ts';
import { channelClient } from '../testing/channel-client.ts';
import { eventStream } from '../testing/event-stream.ts';
import { eventually } from '../testing/eventually.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { insertChat, insertMessages } from '../testing/message-rows.ts';
import { databaseKind } from '../testing/test-database.ts';

const TELEGRAM_TOKEN = `123456789:${'A'.repeat(20)}${'b_-'.repeat(5)}`;
const at = (iso: string) => new Date(iso);

describe(`message exports (${databaseKind()})`, () => {
  let t: TestGateway;
  const clock = new ManualClock(at('2030-03-01T00:00:00Z'));
  let account: { accountId: string; token: string };
  let other: { accountId: string; token: string };
  let stream: ReturnType<typeof eventStream>;
  let whatsapp: string;
  let bot: string;
  /** Message ids in the order the export must list them. */
  let expected: { ids: string[]; botIds: string[] };

  const create = (body: unknown, token = account.token) => t.call('POST', '/v2/messages/messages_dump', { token, body });
  const status = (id: string, token = account.token) => t.call('GET', `/v2/messages/messages_dump/${id}`, { token });
  const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

  /** Creates an export and waits for the job to finish it; returns its id, link and the file's records. */
  async function exportOf(body: Record<string, unknown>) {
    const res = await create(body);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({ status: 'pending', export_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const id = res.json().data.export_id as string;
    const task = await eventually(async () => {
      const data = (await status(id)).json().data as { status: string; url: string | null };
      return data.status === 'done' ? data : undefined;
    });
    const file = await t.call('GET', pathOf(task.url!));
    expect(file.statusCode).toBe(200);
    const records = parse(file.body, { bom: true }) as string[][];
    return { id, url: task.url!, file, header: records[0], rows: records.slice(1) };
  }

  beforeAll(async () => {
    t = await startTestGateway({ clock });
    account = await t.newAccount('Exports');
    other = await t.newAccount('Other');
    stream = eventStream(t.gateway.database, account.accountId);
    const api = channelClient(t, account.token);
    const { channel_id: wa } = await api.create('whatsapp');
    await api.sandbox(wa, 'scan', { phone: '79001112233' });
    await api.untilActive(wa);
    whatsapp = wa;
    bot = (await api.create('telegram', { telegram_token: TELEGRAM_TOKEN })).channel_id;
    await t.gateway.database.db.updateTable('channels').set({ name: 'Sales, "main" line' }).where('id', '=', whatsapp).execute();

    const db = t.gateway.database.db;
    const anna = await insertChat(db, { accountId: account.accountId, channelId: whatsapp, chatId: '79005550001', name: 'Анна Петрова' });
    const group = await insertChat(db, { accountId: account.accountId, channelId: whatsapp, chatType: 'whatsgroup', chatId: '1203630@g.us', name: null });
    const botChat = await insertChat(db, { accountId: account.accountId, channelId: bot, chatType: 'telegram', chatId: '555', name: 'Bob' });
    const base = { accountId: account.accountId, channelId: whatsapp, chatRef: anna };
    const tie = at('2030-02-01T10:00:00.000Z');
    const [before, first, second, third, fourth, fifth, lastIn, atEnd] = await insertMessages(db, [
      { ...base, createdAt: at('2030-01-31T23:59:59.999Z'), text: 'before the period' },
      { ...base, createdAt: at('2030-02-01T00:00:00.000Z'), text: 'Привет, "world"\nsecond line', direction: 'inbound', status: 'read' },
      // Inserted before `second` but later in time: the file follows time, not insertion.
      { ...base, createdAt: at('2030-02-01T11:00:00.000Z'), text: null, attachment: { url: 'https://files.example.org/a.pdf', name: 'a.pdf' }, direction: 'outbound', status: 'delivered', crmUserId: 'crm-7' },
      { ...base, chatRef: group, createdAt: tie, text: 'first of a tie', direction: 'outbound', status: 'failed', reason: 'bad_contact' },
      { ...base, chatRef: group, createdAt: tie, text: 'second of a tie', editedAt: at('2030-02-01T10:05:00.000Z') },
      { ...base, createdAt: at('2030-02-02T08:00:00.000Z'), text: 'deleted but kept', direction: 'outbound', status: 'sent', deletedAt: at('2030-02-02T08:01:00.000Z') },
      { ...base, createdAt: at('2030-02-28T23:59:59.999Z'), text: null, template: { id: '9d4f7a2e-0c1b-4e3a-8f5d-6b7c8d9e0f1a', values: ['x'] }, direction: 'outbound', status: 'read' },
      { ...base, createdAt: at('2030-03-01T00:00:00.000Z'), text: 'at the end, excluded' },
    ]);
    const [quoting, botMessage] = await insertMessages(db, [
      { ...base, createdAt: at('2030-02-03T09:00:00.000Z'), text: 'a reply', quotedMessageId: first! },
      { accountId: account.accountId, channelId: bot, chatRef: botChat, createdAt: at('2030-02-01T10:00:00.000Z'), text: '/start' },
    ]);
    expect([before, atEnd]).toHaveLength(2);
    expected = { ids: [first!, third!, fourth!, botMessage!, second!, fifth!, quoting!, lastIn!], botIds: [botMessage!] };

    const foreignChannel = (await channelClient(t, other.token).create('telegram', { telegram_token: TELEGRAM_TOKEN })).channel_id;
    const foreignChat = await insertChat(db, { accountId: other.accountId, channelId: foreignChannel, chatType: 'telegram', chatId: '1' });
    await insertMessages(db, [{ accountId: other.accountId, channelId: foreignChannel, chatRef: foreignChat, createdAt: at('2030-02-05T00:00:00Z'), text: 'not yours' }]);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await stream.since();
  });

  it('writes every message of the period, one account only, in time order, as RFC 4180 CSV in UTF-8 with BOM', async () => {
    const { id, url, file, header, rows } = await exportOf({ start_at: '2030-02-01', end_at: '2030-03-01T03:00:00+03:00' });
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="messages-${id}.csv"`);
    expect(file.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(file.body).toContain('\r\n');
    expect(header).toEqual([...exportColumns]);
    expect(rows.map((r) => r[0])).toEqual(expected.ids);

    const byId = new Map(rows.map((r) => [r[0], Object.fromEntries(exportColumns.map((c, i) => [c, r[i]]))]));
    const [first, third, fourth, , second, fifth, quoting, lastIn] = expected.ids.map((m) => byId.get(m)!);
    expect(first).toEqual({
      message_id: expected.ids[0],
      created_at: '2030-02-01T00:00:00.000Z',
      channel_id: whatsapp,
      transport: 'whatsapp',
      channel_name: 'Sales, "main" line',
      chat_type: 'whatsapp',
      chat_id: '79005550001',
      contact_name: 'Анна Петрова',
      direction: 'inbound',
      status: 'read',
      reason: '',
      text: 'Привет, "world"\nsecond line',
      attachment_url: '',
      attachment_name: '',
      template_id: '',
      crm_user_id: '',
      quoted_message_id: '',
      edited_at: '',
      deleted_at: '',
    });
    expect(second).toMatchObject({ text: '', attachment_url: 'https://files.example.org/a.pdf', attachment_name: 'a.pdf', crm_user_id: 'crm-7', direction: 'outbound' });
    expect(third).toMatchObject({ chat_type: 'whatsgroup', chat_id: '1203630@g.us', contact_name: '', status: 'failed', reason: 'bad_contact' });
    expect(fourth).toMatchObject({ text: 'second of a tie', edited_at: '2030-02-01T10:05:00.000Z' });
    expect(fifth).toMatchObject({ text: 'deleted but kept', deleted_at: '2030-02-02T08:01:00.000Z' });
    expect(quoting).toMatchObject({ quoted_message_id: expected.ids[0] });
    expect(lastIn).toMatchObject({ template_id: '9d4f7a2e-0c1b-4e3a-8f5d-6b7c8d9e0f1a', created_at: '2030-02-28T23:59:59.999Z' });
    expect(byId.get(expected.botIds[0]!)).toMatchObject({ transport: 'telegram', chat_type: 'telegram', contact_name: 'Bob', text: '/start' });

    expect(await stream.since()).toEqual([{ name: 'messages_dump.status_update', payload: { export_id: id, status: 'done', url } }]);
    const event = await t.gateway.database.db.selectFrom('events').select('ordering_key').where('name', '=', 'messages_dump.status_update').executeTakeFirstOrThrow();
    expect(event.ordering_key).toBe(`export:${id}`);
  });

  it('keeps to one channel when channel_id is given, a deleted channel’s kept history included', async () => {
    expect((await exportOf({ start_at: '2030-01-01', end_at: '2030-03-01', channel_id: bot })).rows.map((r) => r[0])).toEqual(expected.botIds);
    expect((await t.call('DELETE', `/v2/channels/${bot}`, { token: account.token })).statusCode).toBe(200);
    expect((await exportOf({ start_at: '2030-01-01', end_at: '2030-03-01', channel_id: bot })).rows.map((r) => r[0])).toEqual(expected.botIds);
  });

  it('an empty period gives a file with the header only', async () => {
    const { header, rows } = await exportOf({ start_at: '2029-01-01T00:00:00Z', end_at: '2029-01-02T00:00:00Z' });
    expect(header).toEqual([...exportColumns]);
    expect(rows).toEqual([]);
  });

  it('the link is signed: an altered one is refused, and after 24 hours it is gone while the task still shows it', async () => {
    const { id, url } = await exportOf({ start_at: '2030-02-01', end_at: '2030-02-02' });
    const u = new URL(url);
    const expires = Number(u.searchParams.get('expires'));
    expect(expires).toBe(Math.floor(clock.now().getTime() / 1000) + 24 * 3600);
    const variant = (change: (p: URLSearchParams) => void, path = u.pathname) => {
      const params = new URLSearchParams(u.search);
      change(params);
      return t.call('GET', `${path}?${params}`);
    };
    for (const res of [
      await variant((p) => p.set('expires', String(expires + 3600))),
      await variant((p) => p.set('signature', 'A'.repeat(43))),
      await variant((p) => p.delete('signature')),
      await variant(() => {}, `/downloads/exports/${expected.ids[0]}.csv`),
      await variant(() => {}, `/downloads/exports/${id}.txt`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'FORBIDDEN', description: 'Download link is not valid' });
    }
    clock.advance(24 * 3600 * 1000 - 1000);
    expect((await t.call('GET', pathOf(url))).statusCode).toBe(200);
    clock.advance(1000);
    const expired = await t.call('GET', pathOf(url));
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toBe('DOWNLOAD_EXPIRED');
    expect((await status(id)).json().data).toEqual({ export_id: id, status: 'done', url });
  });

  it('once its file is purged, a link that has not expired yet finds nothing', async () => {
    const { id, url } = await exportOf({ start_at: '2030-02-01', end_at: '2030-02-02' });
    await purgeExport(t.gateway.exports, id);
    const res = await t.call('GET', pathOf(url));
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('EXPORT_NOT_FOUND');
  });

  it('shows webhook_failed while the announcement is refused, and done again once a delivery succeeds', async () => {
    const { id, url } = await exportOf({ start_at: '2030-02-01', end_at: '2030-02-02' });
    const deps = { store: t.gateway.store, clock };
    expect(await exportWebhookOutcome(deps, id, false)).toBe('webhook_failed');
    expect((await status(id)).json().data).toEqual({ export_id: id, status: 'webhook_failed', url });
    expect((await t.call('GET', pathOf(url))).statusCode).toBe(200);
    expect(await exportWebhookOutcome(deps, id, false)).toBe('webhook_failed');
    expect(await exportWebhookOutcome(deps, id, true)).toBe('done');
    expect(await exportWebhookOutcome(deps, id, true)).toBe('done');
    expect((await status(id)).json().data.status).toBe('done');
    expect(await exportWebhookOutcome(deps, '00000000-0000-4000-8000-000000000000', false)).toBeNull();
    expect(await stream.names()).toEqual(['messages_dump.status_update']);
  });

  /** An export task written straight into the store, without its job. */
  async function pendingTask(startAt: Date, endAt: Date): Promise<string> {
    const now = clock.now();
    const record: ExportRecord = {
      id: crypto.randomUUID(),
      accountId: account.accountId,
      channelId: null,
      startAt,
      endAt,
      status: 'pending',
      rowCount: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      expiresAt: null,
    };
    await t.gateway.store.exports.insert(record);
    return record.id;
  }

  it('pages through the messages by keyset without losing or repeating any, ties across pages included', async () => {
    const id = await pendingTask(at('2030-02-01T00:00:00Z'), at('2030-03-01T00:00:00Z'));
    expect(await buildExport({ ...t.gateway.exports, pageSize: 2 }, id)).toBe('built');
    const task = (await status(id)).json().data as { status: string; url: string };
    expect(task.status).toBe('done');
    const rows = parse((await t.call('GET', pathOf(task.url))).body, { bom: true }) as string[][];
    expect(rows.slice(1).map((r) => r[0])).toEqual(expected.ids);
    const row = await t.gateway.database.db.selectFrom('exports').select(['row_count', 'completed_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ row_count: expected.ids.length, completed_at: clock.now() });
    expect(await buildExport(t.gateway.exports, id)).toBe('skipped');
  });

  it('a task not yet built has no link, and a delivery outcome does not touch it', async () => {
    const id = await pendingTask(clock.now(), clock.now());
    expect((await status(id)).json().data).toEqual({ export_id: id, status: 'pending', url: null });
    expect(await exportWebhookOutcome({ store: t.gateway.store, clock }, id, false)).toBe('pending');
  });

  it('accepts a period longer than 366 days whole, saying so in the answer', async () => {
    const res = await create({ start_at: '2020-01-01', end_at: '2031-01-03' });
    expect(res.statusCode).toBe(201);
    const created = res.json().data as { status: string; export_id: string; warnings: string[] };
    expect(created.status).toBe('pending');
    expect(created.warnings).toEqual(['the period covers 4020 days, more than 366: it is exported whole, which takes longer to build']);
    const row = await t.gateway.database.db.selectFrom('exports').select(['start_at', 'end_at']).where('id', '=', created.export_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ start_at: new Date('2020-01-01T00:00:00Z'), end_at: new Date('2031-01-03T00:00:00Z') });
  });

  it('refuses bad periods, naming the fields', async () => {
    const fields = async (body: unknown) => {
      const res = await create(body);
      expect(res.statusCode).toBe(400);
      return res.json().data.fields as { field: string; message: string }[];
    };
    expect(await fields({ start_at: '2030-02-02', end_at: '2030-02-01' })).toEqual([{ field: 'end_at', message: 'must be after start_at' }]);
    expect((await fields({ start_at: 'last week', end_at: '2030-02-30' })).map((f) => f.field)).toEqual(['start_at', 'end_at']);
    expect((await fields({ end_at: '2030-02-01' })).map((f) => f.field)).toEqual(['start_at']);
    expect((await fields({ start_at: '2030-01-01', end_at: '2030-01-02', channel_id: 'abc' })).map((f) => f.field)).toEqual(['channel_id']);
  });

  it('another account’s channel and export are not found; a sidecar key may not export', async () => {
    const foreign = (await channelClient(t, other.token).create('telegram', { telegram_token: TELEGRAM_TOKEN })).channel_id;
    const res = await create({ start_at: '2030-01-01', end_at: '2030-01-02', channel_id: foreign });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('CHANNEL_NOT_FOUND');

    const mine = (await create({ start_at: '2030-01-01', end_at: '2030-01-02' })).json().data.export_id as string;
    const theirs = await status(mine, other.token);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error).toBe('EXPORT_NOT_FOUND');
    expect((await status('00000000-0000-4000-8000-000000000000')).json().error).toBe('EXPORT_NOT_FOUND');
    expect((await status('not-a-uuid')).statusCode).toBe(400);

    const { token: sidecar } = await t.issueToken(account.accountId, 'sidecar');
    expect((await create({ start_at: '2030-01-01', end_at: '2030-01-02' }, sidecar)).statusCode).toBe(403);
  });
});
