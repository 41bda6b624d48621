import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DeleteContactsBody, ListContactsQuery, ListedContact, UpsertContactsBody } from '../../../../contract/contacts.ts';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import { deleteContacts, listContacts, upsertContacts, type ContactDeps } from '../../../core/contacts/contacts.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { authErrors } from '../errors.ts';
import { limitEntities } from '../entity-limit.ts';

/** Contact names: how the chat frame names a chat, as the CRM knows the contact. */
export const contactRoutes: FastifyPluginAsyncTypebox<ContactDeps> = async (app, deps) => {
  const tags = ['contacts'];
  const List = Envelope(Type.Array(ListedContact));

  app.post(
    '/contacts',
    {
      preValidation: limitEntities('data'),
      schema: {
        tags,
        summary: 'Create or rename contacts (at most 100)',
        description: 'Each contact is `chat_type` with exactly one of `chat_id`, `username`, `phone` (the last two for telegram and max), and `name`.',
        body: UpsertContactsBody,
        response: { 201: List, ...authErrors },
      },
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await upsertContacts(deps, accountOf(request).accountId, request.body.data))),
  );

  app.get(
    '/contacts',
    {
      schema: {
        tags,
        summary: 'List contacts',
        description: 'In key order, 100 at a time; pass the `cursor` of the last contact as `after` for the next page.',
        querystring: ListContactsQuery,
        response: { 200: List, ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, await listContacts(deps, accountOf(request).accountId, request.query)),
  );

  app.delete(
    '/contacts',
    {
      preValidation: limitEntities('data'),
      schema: { tags, summary: 'Delete contacts (at most 100; unknown ones are ignored)', body: DeleteContactsBody, response: { 200: NullEnvelope, ...authErrors } },
    },
    async (request) => {
      await deleteContacts(deps, accountOf(request).accountId, request.body.data);
      return envelope(deps.clock, null);
    },
  );
};
