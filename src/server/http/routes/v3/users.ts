import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { V3EntityIdParams, V3Ids, V3Items, V3NotFoundIds, V3User } from '../../../../contract/v3/crm.ts';
import { v3Errors, v3ErrorsWithNotFound } from '../../../../contract/v3/errors.ts';
import { AppError } from '../../../core/errors.ts';
import { assertEntityCount } from '../../../core/entity-limit.ts';
import { deleteUsers, getUser, listUsers, processUsers, type UserDeps } from '../../../core/users/users.ts';
import { idsAsText } from '../lenient-body.ts';
import { v3CallerOf } from './caller.ts';
import { idList, inEntityWords } from './entity-errors.ts';
import { V3Error } from './errors.ts';

const PAGE = 100;

/** CRM users (the CRM's employees) through the v3 face: the same use-cases as /v2/users. */
export const v3UserRoutes: FastifyPluginAsyncTypebox<UserDeps> = async (app, deps) => {
  const tags = ['v3 users'];
  const config = { v3Invalid: 'INVALID_USERS_DATA' };

  /** Every user of the account, sorted by name (a v3 account has at most 1000). */
  async function allUsers(accountId: string): Promise<V3User[]> {
    const users: V3User[] = [];
    for (let after: string | undefined; ; ) {
      const page = await listUsers(deps, accountId, { after, limit: PAGE });
      users.push(...page);
      if (page.length < PAGE) break;
      after = page[page.length - 1]!.id;
    }
    return users.sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  }

  app.get('/users', { schema: { tags, summary: 'List users, sorted by name', response: { 200: Type.Array(V3User), ...v3Errors } } }, async (request) =>
    allUsers(v3CallerOf(request).accountId),
  );

  app.get(
    '/users/:id',
    { schema: { tags, summary: 'One user', params: V3EntityIdParams, response: { 200: V3User, ...v3ErrorsWithNotFound } } },
    async (request) => getUser(deps, v3CallerOf(request).accountId, request.params.id),
  );

  app.post(
    '/users',
    {
      config,
      schema: {
        tags,
        summary: 'Add or change users (at most 100)',
        description:
          'A bare array of `{id, name, phone?}`, upserted by id (`id` ≤ 64, `name` ≤ 150 characters); a malformed phone is dropped; ' +
          'two users with one phone answer 400 DUPLICATE_PHONE_NUMBER; bad items answer 400 INVALID_USERS_DATA `data: [{index, fields}]`. ' +
          'Answers 200 with the users as stored.',
        body: V3Items,
        response: { 200: Type.Array(V3User), ...v3Errors },
      },
    },
    async (request) => {
      const accountId = v3CallerOf(request).accountId;
      const items = request.body.map((u) => idsAsText(u, ['id']));
      try {
        await processUsers(deps, accountId, items);
      } catch (err) {
        if (err instanceof AppError && err.message === 'Two users may not share a phone') throw new V3Error(400, 'DUPLICATE_PHONE_NUMBER', err.message, err.data);
        return inEntityWords('INVALID_USERS_DATA', () => Promise.reject(err));
      }
      const ids = [...new Set(items.map((u) => String((u as { id: unknown }).id)))];
      return listUsers(deps, accountId, { id: ids });
    },
  );

  /** Deletes the ids, answering those that were not known. */
  async function remove(accountId: string, ids: string[]): Promise<string[]> {
    assertEntityCount(ids.length);
    const known = new Set((await listUsers(deps, accountId, { id: ids })).map((u) => u.id));
    await deleteUsers(deps, accountId, ids);
    return ids.filter((id) => !known.has(id));
  }

  app.delete(
    '/users/:id',
    { schema: { tags, summary: 'Delete one user', description: 'Answers `[]`, or `[id]` when the id was not known.', params: V3EntityIdParams, response: { 200: V3NotFoundIds, ...v3Errors } } },
    async (request) => remove(v3CallerOf(request).accountId, [request.params.id]),
  );

  app.patch(
    '/users/bulk_delete',
    { schema: { tags, summary: 'Delete users (at most 100)', description: 'A bare array of ids; answers the ids that were not known.', body: V3Ids, response: { 200: V3NotFoundIds, ...v3Errors } } },
    async (request) => remove(v3CallerOf(request).accountId, idList(request.body)),
  );
};
