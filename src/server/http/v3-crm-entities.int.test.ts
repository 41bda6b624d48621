import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';
import { v3Account } from '../testing/v3-account.ts';

// /v3/users, /v3/contacts, /v3/deals and /v3/pipelines as the v3 facts describe them (§5–§8).
describe(`v3 users, contacts, deals and pipelines (${databaseKind()})`, () => {
  let t: TestGateway;
  let apiKey: string;
  let sidecarKey: string;

  beforeAll(async () => {
    t = await startTestGateway();
    ({ apiKey, sidecarKey } = await v3Account(t));
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token: apiKey, body });

  it('upserts users from a bare array, lists them sorted by name, reads and deletes by id', async () => {
    const added = await call('POST', '/v3/users', [
      { id: 'u2', name: 'Boris', phone: '79261234567' },
      { id: 1, name: 'Anna' },
      { id: 'u3', name: 'Clara', phone: 'not a phone' },
    ]);
    expect(added.statusCode, added.body).toBe(200);
    expect((await call('POST', '/v3/users', [{ id: 'u2', name: 'Boris K' }])).statusCode).toBe(200);
    const list = await call('GET', '/v3/users');
    expect(list.json()).toEqual([
      { id: '1', name: 'Anna' },
      { id: 'u2', name: 'Boris K', phone: '79261234567' },
      { id: 'u3', name: 'Clara' },
    ]);
    expect((await call('GET', '/v3/users/u2')).json()).toEqual({ id: 'u2', name: 'Boris K', phone: '79261234567' });
    expect((await call('GET', '/v3/users/nobody')).statusCode).toBe(404);
    expect((await call('DELETE', '/v3/users/u3')).json()).toEqual([]);
    expect((await call('PATCH', '/v3/users/bulk_delete', ['1', 'ghost'])).json()).toEqual(['ghost']);
    expect((await call('GET', '/v3/users')).json()).toEqual([{ id: 'u2', name: 'Boris K', phone: '79261234567' }]);
  });

  it('refuses bad users with INVALID_USERS_DATA naming each item, a shared phone with DUPLICATE_PHONE_NUMBER, more than 100 with TOO_MANY_ENTITIES', async () => {
    const bad = await call('POST', '/v3/users', [{ id: 'ok', name: 'Ok' }, { id: 'x' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'INVALID_USERS_DATA', data: [{ index: 1, fields: ['name'] }] });
    const shared = await call('POST', '/v3/users', [{ id: 'a', name: 'A', phone: '79261234500' }, { id: 'b', name: 'B', phone: '79261234500' }]);
    expect(shared.json().error).toBe('DUPLICATE_PHONE_NUMBER');
    const many = await call('POST', '/v3/users', Array.from({ length: 101 }, (_, i) => ({ id: `m${i}`, name: 'M' })));
    expect(many.statusCode).toBe(403);
    expect(many.json().error).toBe('TOO_MANY_ENTITIES');
  });

  it('upserts contacts, pages them as {count, data} by offset, reads, deletes and bulk-deletes them', async () => {
    const contacts = Array.from({ length: 100 }, (_, i) => ({
      id: `c${String(i).padStart(3, '0')}`,
      responsibleUserId: 'u2',
      name: `Contact ${i}`,
      contactData: [{ chatType: 'whatsapp', chatId: `7900111${String(i).padStart(4, '0')}` }],
    }));
    expect((await call('POST', '/v3/contacts', contacts)).statusCode).toBe(200);
    const more = await call('POST', '/v3/contacts', [
      { id: 'c100', responsibleUserId: 'u2', name: 'Tg', contactData: [{ chatType: 'telegram', username: 'someone' }], uri: 'https://crm.example/c/100' },
    ]);
    expect(more.json()).toEqual([{ id: 'c100', responsibleUserId: 'u2', name: 'Tg', contactData: [{ chatType: 'telegram', username: 'someone' }], uri: 'https://crm.example/c/100' }]);
    const first = (await call('GET', '/v3/contacts')).json();
    expect(first.count).toBe(101);
    expect(first.data).toHaveLength(100);
    expect(first.data[0]).toEqual({ id: 'c000', responsibleUserId: 'u2', name: 'Contact 0', contactData: [{ chatType: 'whatsapp', chatId: '79001110000' }] });
    const second = (await call('GET', '/v3/contacts?offset=100')).json();
    expect(second).toEqual({ count: 101, data: [expect.objectContaining({ id: 'c100' })] });
    expect((await call('GET', '/v3/contacts/c100/')).json().name).toBe('Tg');
    expect((await call('DELETE', '/v3/contacts/c100')).json()).toEqual([]);
    expect((await call('PATCH', '/v3/contacts/bulk_delete', ['c000', 'c001', 'nope'])).json()).toEqual(['nope']);
    expect((await call('GET', '/v3/contacts')).json().count).toBe(98);
  });

  it('refuses bad contacts with INVALID_CONTACTS_DATA [{index, fields}]', async () => {
    const res = await call('POST', '/v3/contacts', [
      { id: 'good', responsibleUserId: 'u2', name: 'Good', contactData: [{ chatType: 'whatsapp', chatId: '79001112233' }] },
      { id: 'bad', responsibleUserId: 'u2', name: 'Bad', contactData: [] },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'INVALID_CONTACTS_DATA', data: [{ index: 1, fields: ['contactData'] }] });
    const noName = await call('POST', '/v3/contacts', [{ id: 'x', responsibleUserId: 'u2', contactData: [{ chatType: 'whatsapp', chatId: '79001112233' }] }]);
    expect(noName.json()).toMatchObject({ error: 'INVALID_CONTACTS_DATA', data: [{ index: 0, fields: ['name'] }] });
  });

  it('upserts deals (numeric ids as text), pages them, deletes them; bad deals are INVALID_DEALS_DATA', async () => {
    const res = await call('POST', '/v3/deals', [
      { id: 7, responsibleUserId: 'u2', name: 'Deal 7', uri: 'https://crm.example/d/7', contacts: ['c002', 3], closed: false },
      { id: '8', responsibleUserId: 'u2', name: 'Deal 8', link: 'https://crm.example/d/8', contacts: ['c002'], closed: true },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const page = (await call('GET', '/v3/deals?offset=0')).json();
    expect(page).toEqual({
      count: 2,
      data: [
        { id: '7', responsibleUserId: 'u2', name: 'Deal 7', uri: 'https://crm.example/d/7', contacts: ['c002', '3'], closed: false },
        { id: '8', responsibleUserId: 'u2', name: 'Deal 8', uri: 'https://crm.example/d/8', contacts: ['c002'], closed: true },
      ],
    });
    expect((await call('GET', '/v3/deals/8')).json().closed).toBe(true);
    expect((await call('PATCH', '/v3/deals/bulk_delete', ['7', '9'])).json()).toEqual(['9']);
    expect((await call('DELETE', '/v3/deals/8')).json()).toEqual([]);
    expect((await call('GET', '/v3/deals')).json()).toEqual({ count: 0, data: [] });
    const bad = await call('POST', '/v3/deals', [{ id: '1', responsibleUserId: 'u2', contacts: [], closed: false }]);
    expect(bad.json()).toMatchObject({ error: 'INVALID_DEALS_DATA', data: [{ index: 0, fields: ['name'] }] });
  });

  it('loads pipelines from a bare array and lists them bare; an empty stages array is INVALID_PIPELINES_DATA', async () => {
    const res = await call('POST', '/v3/pipelines', [{ id: 1, name: 'Sales', stages: [{ id: 's1', name: 'New' }, { id: 2, name: 'Won' }] }, { id: 'p2', name: 'Support' }]);
    expect(res.statusCode, res.body).toBe(200);
    const list = (await call('GET', '/v3/pipelines')).json();
    expect(list).toEqual(
      expect.arrayContaining([
        { id: '1', name: 'Sales', stages: [{ id: 's1', name: 'New' }, { id: '2', name: 'Won' }] },
        { id: 'p2', name: 'Support', stages: [] },
      ]),
    );
    const empty = await call('POST', '/v3/pipelines', [{ id: 'p3', name: 'Empty', stages: [] }]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('INVALID_PIPELINES_DATA');
  });

  it('keeps sidecar keys out of users, contacts, deals and pipelines', async () => {
    for (const url of ['/v3/users', '/v3/contacts', '/v3/deals', '/v3/pipelines']) {
      const res = await t.call('GET', url, { token: sidecarKey });
      expect(res.statusCode, url).toBe(403);
      expect(res.body).toBe('{"error":"FORBIDDEN"}');
    }
  });
});
