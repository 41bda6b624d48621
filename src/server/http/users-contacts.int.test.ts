import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`CRM users and contacts (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };
  let b: { accountId: string; token: string };

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
    b = await t.newAccount('B');
  });
  afterAll(() => t.close());

  describe('/v2/users', () => {
    it('creates and renames users, per account', async () => {
      const created = await t.call('POST', '/v2/users', { token: a.token, body: { data: [{ id: 'u2', name: 'Bea' }, { id: 'u1', name: 'Ann' }] } });
      expect(created.statusCode).toBe(201);
      expect(created.json().data).toEqual([{ id: 'u2', name: 'Bea' }, { id: 'u1', name: 'Ann' }]);
      await t.call('POST', '/v2/users', { token: a.token, body: { data: [{ id: 'u1', name: 'Ann Agent' }, { id: 'u1', name: 'Ann A.' }] } });
      await t.call('POST', '/v2/users', { token: b.token, body: { data: [{ id: 'u1', name: 'Other' }] } });

      const listed = await t.call('GET', '/v2/users', { token: a.token });
      expect(listed.json().data).toEqual([{ id: 'u1', name: 'Ann A.' }, { id: 'u2', name: 'Bea' }]);
      expect((await t.call('GET', '/v2/users?id=u2&id=nope', { token: a.token })).json().data).toEqual([{ id: 'u2', name: 'Bea' }]);
      expect((await t.call('GET', '/v2/users?limit=1&after=u1', { token: a.token })).json().data).toEqual([{ id: 'u2', name: 'Bea' }]);
    });

    it('deletes users, ignoring unknown ids', async () => {
      const res = await t.call('DELETE', '/v2/users', { token: a.token, body: { data: [{ id: 'u2' }, { id: 'never' }] } });
      expect(res.statusCode).toBe(200);
      expect((await t.call('GET', '/v2/users', { token: a.token })).json().data).toEqual([{ id: 'u1', name: 'Ann A.' }]);
      expect((await t.call('GET', '/v2/users', { token: b.token })).json().data).toEqual([{ id: 'u1', name: 'Other' }]);
    });

    it('takes 100 entities a call, and answers 403 TOO_MANY_ENTITIES beyond', async () => {
      const users = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `bulk-${String(i).padStart(3, '0')}`, name: `User ${i}` }));
      expect((await t.call('POST', '/v2/users', { token: a.token, body: { data: users(100) } })).statusCode).toBe(201);
      for (const [method, url, body] of [
        ['POST', '/v2/users', { data: users(101) }],
        ['DELETE', '/v2/users', { data: users(101).map(({ id }) => ({ id })) }],
        ['GET', `/v2/users?${users(101).map((u) => `id=${u.id}`).join('&')}`, undefined],
      ] as const) {
        const res = await t.call(method, url, { token: a.token, body });
        expect(res.statusCode, `${method} ${url.slice(0, 20)}`).toBe(403);
        expect(res.json()).toMatchObject({ error: 'TOO_MANY_ENTITIES', data: { limit: 100, given: 101 } });
      }
      const rest = (await t.call('GET', '/v2/users?limit=100&after=bulk-049', { token: a.token })).json().data;
      expect(rest.map((u: { id: string }) => u.id)).toEqual([...users(100).slice(50).map((u) => u.id), 'u1']);
    });

    it('refuses malformed users and sidecar keys', async () => {
      const bad = await t.call('POST', '/v2/users', { token: a.token, body: { data: [{ id: '', name: 'x' }] } });
      expect(bad.statusCode).toBe(400);
      const { token: sidecar } = await t.issueToken(a.accountId, 'sidecar');
      expect((await t.call('GET', '/v2/users', { token: sidecar })).statusCode).toBe(403);
    });
  });

  describe('/v2/contacts', () => {
    it('keys a contact by chat type and one identifier, and renames on repeat', async () => {
      const res = await t.call('POST', '/v2/contacts', {
        token: a.token,
        body: {
          data: [
            { chat_type: 'whatsapp', chat_id: '79990000001', name: 'Wanda' },
            { chat_type: 'telegram', username: 'Bob', name: 'Bob' },
            { chat_type: 'telegram', username: 'bob', name: 'Bob Buyer' },
            { chat_type: 'max', phone: '79990000002', name: 'Max' },
          ],
        },
      });
      expect(res.statusCode).toBe(201);
      const listed = await t.call('GET', '/v2/contacts', { token: a.token });
      expect(listed.json().data).toEqual([
        { chat_type: 'max', phone: '79990000002', name: 'Max', cursor: 'max:phone:79990000002' },
        { chat_type: 'telegram', username: 'bob', name: 'Bob Buyer', cursor: 'telegram:username:bob' },
        { chat_type: 'whatsapp', chat_id: '79990000001', name: 'Wanda', cursor: 'whatsapp:chat_id:79990000001' },
      ]);
      const page = await t.call('GET', '/v2/contacts?limit=1&after=max:phone:79990000002', { token: a.token });
      expect(page.json().data.map((c: { name: string }) => c.name)).toEqual(['Bob Buyer']);
      expect((await t.call('GET', '/v2/contacts?chat_type=whatsapp', { token: a.token })).json().data).toHaveLength(1);
      expect((await t.call('GET', '/v2/contacts', { token: b.token })).json().data).toEqual([]);
    });

    it('refuses contacts with no or several identifiers, or a username where the messenger has none', async () => {
      const res = await t.call('POST', '/v2/contacts', {
        token: a.token,
        body: {
          data: [
            { chat_type: 'telegram', name: 'nobody' },
            { chat_type: 'telegram', chat_id: '1', username: 'x', name: 'two' },
            { chat_type: 'whatsapp', phone: '79990000001', name: 'phone on whatsapp' },
          ],
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.fields.map((f: { field: string }) => f.field)).toEqual(['data.0', 'data.1', 'data.2']);
    });

    it('deletes contacts and takes at most 100 a call', async () => {
      const del = await t.call('DELETE', '/v2/contacts', { token: a.token, body: { data: [{ chat_type: 'telegram', username: 'BOB' }] } });
      expect(del.statusCode).toBe(200);
      expect((await t.call('GET', '/v2/contacts?chat_type=telegram', { token: a.token })).json().data).toEqual([]);
      const many = Array.from({ length: 101 }, (_, i) => ({ chat_type: 'vk', chat_id: String(i), name: `c${i}` }));
      const res = await t.call('POST', '/v2/contacts', { token: a.token, body: { data: many } });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('TOO_MANY_ENTITIES');
    });
  });
});
