import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

/** Users sent as the original service's clients send them, and the earlier shape beside it. */
describe(`users in the service's shape (${databaseKind()})`, () => {
  let t: TestGateway;
  let a: { accountId: string; token: string };

  beforeAll(async () => {
    t = await startTestGateway();
    a = await t.newAccount('A');
  });
  afterAll(() => t.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.call(method, url, { token: a.token, body });
    return { status: res.statusCode, body: res.json() };
  };

  it('upserts {users: [{id, name, phone}]} by id and answers {processed}', async () => {
    const created = await call('POST', '/v2/users', {
      users: [
        { id: 'u1', name: 'Ann', phone: '+7 (999) 123-45-67' },
        { id: 'u2', name: 'Bea', phone: '79991234568' },
        { id: 'u3', name: 'Cid' },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ processed: 3 });
    expect(typeof created.body.meta.timestamp).toBe('number');

    const again = await call('POST', '/v2/users', { users: [{ id: 'u1', name: 'Ann Agent' }] });
    expect(again.body.data).toEqual({ processed: 1 });
    // A change without a phone keeps the phone the user had.
    expect((await call('GET', '/v2/users/u1')).body.data).toEqual({ id: 'u1', name: 'Ann Agent', phone: '79991234567' });
    expect((await call('GET', '/v2/users')).body.data).toEqual([
      { id: 'u1', name: 'Ann Agent', phone: '79991234567' },
      { id: 'u2', name: 'Bea', phone: '79991234568' },
      { id: 'u3', name: 'Cid' },
    ]);
  });

  it('drops an invalid phone rather than refusing the user, and keeps a phone to one user', async () => {
    const res = await call('PATCH', '/v2/users', { users: [{ id: 'u3', name: 'Cid', phone: 'not a phone' }, { id: 'u4', name: 'Dan', phone: '999' }] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ processed: 2 });
    expect((await call('GET', '/v2/users?id=u3&id=u4')).body.data).toEqual([{ id: 'u3', name: 'Cid' }, { id: 'u4', name: 'Dan' }]);

    // u3 takes u2's phone: it is u3's alone afterwards.
    await call('POST', '/v2/users', { users: [{ id: 'u3', name: 'Cid', phone: '79991234568' }] });
    expect((await call('GET', '/v2/users/u2')).body.data).toEqual({ id: 'u2', name: 'Bea' });
    expect((await call('GET', '/v2/users/u3')).body.data).toEqual({ id: 'u3', name: 'Cid', phone: '79991234568' });

    const shared = await call('POST', '/v2/users', { users: [{ id: 'u5', name: 'E', phone: '79990000001' }, { id: 'u6', name: 'F', phone: '+79990000001' }] });
    expect(shared.status).toBe(400);
    expect(shared.body.error).toBe('INVALID_USER_DATA');
  });

  it('answers INVALID_USER_DATA for bad data, 404 for an unknown user, 403 TOO_MANY_ENTITIES beyond 100', async () => {
    for (const users of [[{ id: 'x'.repeat(65), name: 'Long id' }], [{ id: 'u7', name: 'n'.repeat(151) }], [{ id: 'u7' }], [{ name: 'No id' }], []]) {
      const res = await call('POST', '/v2/users', { users });
      expect(res.status, JSON.stringify(users).slice(0, 40)).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_USER_DATA', description: expect.any(String) });
    }
    expect((await call('POST', '/v2/users', { users: [{ id: 'x'.repeat(64), name: 'n'.repeat(150) }] })).body.data).toEqual({ processed: 1 });
    expect((await call('GET', '/v2/users/nobody')).status).toBe(404);
    expect((await call('GET', '/v2/users/nobody')).body.error).toBe('USER_NOT_FOUND');
    const many = Array.from({ length: 101 }, (_, i) => ({ id: `m${i}`, name: `M ${i}` }));
    const tooMany = await call('POST', '/v2/users', { users: many });
    expect(tooMany.status).toBe(403);
    expect(tooMany.body.error).toBe('TOO_MANY_ENTITIES');
  });

  it('deletes by DELETE /v2/users (ids in any listed form) and DELETE /v2/users/{id}', async () => {
    expect((await call('DELETE', '/v2/users', { users: ['u4', { id: 'unknown' }] })).status).toBe(200);
    expect((await call('DELETE', '/v2/users', ['x'.repeat(64)])).status).toBe(200);
    expect((await call('DELETE', '/v2/users/u3')).status).toBe(200);
    expect((await call('GET', '/v2/users')).body.data.map((u: { id: string }) => u.id)).toEqual(['u1', 'u2']);
  });

  it('takes a bare array of users and ids sent as numbers', async () => {
    const res = await call('POST', '/v2/users', [{ id: 77, name: 'Numbered', phone: '79990000077' }]);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ processed: 1 });
    expect((await call('GET', '/v2/users/77')).body.data).toEqual({ id: '77', name: 'Numbered', phone: '79990000077' });
  });

  it('still takes the earlier {data: [{id, name}]} and answers with the users', async () => {
    const res = await call('POST', '/v2/users', { data: [{ id: 'u9', name: 'Old Shape' }] });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual([{ id: 'u9', name: 'Old Shape' }]);
    expect((await call('DELETE', '/v2/users', { data: [{ id: 'u9' }] })).status).toBe(200);
    expect((await call('GET', '/v2/users/u9')).status).toBe(404);
  });
});
