import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import { CrmUser, DeleteUsersBody, ListUsersQuery, UpsertUsersBody } from '../../../../contract/users.ts';
import { deleteUsers, listUsers, upsertUsers, type UserDeps } from '../../../core/users/users.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { authErrors } from '../errors.ts';
import { limitEntities } from '../entity-limit.ts';

/** CRM users: the names the chat frame shows for the messages they send (`crm_user_id`). */
export const userRoutes: FastifyPluginAsyncTypebox<UserDeps> = async (app, deps) => {
  const tags = ['users'];
  const List = Envelope(Type.Array(CrmUser));

  app.post(
    '/users',
    {
      preValidation: limitEntities('data'),
      schema: { tags, summary: 'Create or rename users (at most 100)', body: UpsertUsersBody, response: { 201: List, ...authErrors } },
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await upsertUsers(deps, accountOf(request).accountId, request.body.data))),
  );

  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'List users',
        description: 'In id order, 100 at a time (`after` = the last id of the previous page), or only the users named by `id` (at most 100).',
        querystring: ListUsersQuery,
        response: { 200: List, ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, await listUsers(deps, accountOf(request).accountId, request.query)),
  );

  app.delete(
    '/users',
    {
      preValidation: limitEntities('data'),
      schema: { tags, summary: 'Delete users (at most 100; unknown ids are ignored)', body: DeleteUsersBody, response: { 200: NullEnvelope, ...authErrors } },
    },
    async (request) => {
      await deleteUsers(deps, accountOf(request).accountId, request.body.data.map((u) => u.id));
      return envelope(deps.clock, null);
    },
  );
};
