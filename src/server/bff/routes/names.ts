import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Contact, ContactKey } from '../../../contract/contacts.ts';
import { Envelope } from '../../../contract/envelope.ts';
import { CrmUser } from '../../../contract/users.ts';
import { contactKeyOf } from '../../core/contacts/contacts.ts';
import type { ContactKeyRecord } from '../../core/contacts/ports.ts';
import { assertEntityCount } from '../../core/entity-limit.ts';
import { validationError } from '../../core/errors.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatInScope, assertChatsSession, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

/**
 * Names as the CRM knows them: the authors of messages (CRM users) and the contacts of chats. A card session
 * may look up only its own chats.
 */
export const nameRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];

  app.post(
    '/users/lookup',
    {
      schema: {
        tags,
        summary: 'Names of CRM users (message authors)',
        body: Type.Object({ ids: Type.Array(CrmUser.properties.id, { minItems: 1 }) }, { additionalProperties: false }),
        response: { 200: Envelope(Type.Array(CrmUser)), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      assertChatsSession(session);
      assertEntityCount(request.body.ids.length);
      const users = await deps.store.crmUsers.getMany(session.accountId, [...new Set(request.body.ids)]);
      return ok(deps.clock, users.map(({ id, name }) => ({ id, name })));
    },
  );

  app.post(
    '/contacts/lookup',
    {
      schema: {
        tags,
        summary: 'Contact names of chats',
        description: 'Each chat by `chat_type` and one of `chat_id`, `username`, `phone`. A chat outside a card session gets 404 CHAT_NOT_FOUND.',
        body: Type.Object({ chats: Type.Array(ContactKey, { minItems: 1 }) }, { additionalProperties: false }),
        response: { 200: Envelope(Type.Array(Contact)), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      assertEntityCount(request.body.chats.length);
      const keys: ContactKeyRecord[] = request.body.chats.map((chat, i) => {
        const key = contactKeyOf(chat);
        if ('problem' in key) throw validationError([{ field: `chats.${i}`, message: key.problem }]);
        assertChatInScope(session, chat);
        return key;
      });
      const found = await deps.store.contacts.find(session.accountId, keys);
      return ok(
        deps.clock,
        found.map((c) => ({ chat_type: c.chatType, [c.kind]: c.value, name: c.name }) as Contact),
      );
    },
  );
};
