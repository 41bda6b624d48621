import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import { DeleteUsersAnyBody, ListedUser, ListUsersQuery, ServiceUsersBody, UserIdParams, UsersProcessed } from '../../../../contract/users.ts';
import { AppError } from '../../../core/errors.ts';
import { deleteUsers, getUser, idsToDelete, listUsers, processUsers, upsertUsers, type UserDeps } from '../../../core/users/users.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { authErrors, withNotFound } from '../errors.ts';
import { limitEntities } from '../entity-limit.ts';
import { eachItem, idsAsText, listUnder } from '../lenient-body.ts';

/** CRM users: the names the chat frame shows for the messages they send (`crm_user_id`), their phones and rights. */
export const userRoutes: FastifyPluginAsyncTypebox<UserDeps> = async (app, deps) => {
  const tags = ['users'];
  const List = Envelope(Type.Array(ListedUser));
  const Written = Envelope(Type.Union([UsersProcessed, Type.Array(ListedUser)]));
  const noUsers = () => new AppError('INVALID_USER_DATA', 'Invalid user data', { fields: [{ field: 'users', message: 'is required' }] });
  const write = async (accountId: string, body: ServiceUsersBody) => {
    if (body.users !== undefined) return processUsers(deps, accountId, body.users);
    if (body.data !== undefined) return upsertUsers(deps, accountId, body.data);
    throw noUsers();
  };
  const writeSchema = (summary: string) => ({
    tags,
    summary,
    description:
      '`{users: [{id, name, phone}]}` (at most 100; upserted by id; a phone is one user\'s, an invalid phone is dropped) answers `{processed}`; ' +
      'bad data answers 400 INVALID_USER_DATA. The earlier `{data: [{id, name}]}` is still accepted and answered with the users.',
    body: ServiceUsersBody,
  });

  // A bare array is the list of users; ids sent as numbers read as text.
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'POST' && request.method !== 'PATCH') return;
    request.body = eachItem(listUnder(request.body, 'users'), 'users', (u) => idsAsText(u, ['id']));
  });
  for (const field of ['users', 'data']) app.addHook('preValidation', async (request) => limitEntities(field)(request));

  app.post('/users', { schema: { ...writeSchema('Create or change users (at most 100)'), response: { 201: Written, ...authErrors } } }, async (request, reply) =>
    reply.code(201).send(envelope(deps.clock, await write(accountOf(request).accountId, request.body))),
  );

  app.patch('/users', { schema: { ...writeSchema('Change users (at most 100)'), response: { 200: Written, ...authErrors } } }, async (request) =>
    envelope(deps.clock, await write(accountOf(request).accountId, request.body)),
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

  app.get(
    '/users/:user_id',
    { schema: { tags, summary: 'One user', params: UserIdParams, response: { 200: Envelope(ListedUser), ...withNotFound } } },
    async (request) => envelope(deps.clock, await getUser(deps, accountOf(request).accountId, request.params.user_id)),
  );

  app.delete(
    '/users',
    {
      schema: {
        tags,
        summary: 'Delete users (at most 100; unknown ids are ignored)',
        description: 'The ids as `{users: […]}`, `{data: […]}` or a bare array, each an id or `{id}`.',
        body: DeleteUsersAnyBody,
        response: { 200: NullEnvelope, ...authErrors },
      },
    },
    async (request) => {
      await deleteUsers(deps, accountOf(request).accountId, idsToDelete(request.body));
      return envelope(deps.clock, null);
    },
  );

  app.delete(
    '/users/:user_id',
    { schema: { tags, summary: 'Delete one user (an unknown id is ignored)', params: UserIdParams, response: { 200: NullEnvelope, ...authErrors } } },
    async (request) => {
      await deleteUsers(deps, accountOf(request).accountId, [request.params.user_id]);
      return envelope(deps.clock, null);
    },
  );
};
