import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Contact, ContactKey, ListContactsQuery, ListedContact } from '../../../../contract/contacts.ts';
import { EntityIdParams, EntityListQuery, IdsBody, StoredContact } from '../../../../contract/crm-entities.ts';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import { deleteContactCards, getContactCard, listContactCards, upsertContactCards } from '../../../core/contacts/cards.ts';
import { deleteContacts, listContacts, upsertContacts, type ContactDeps } from '../../../core/contacts/contacts.ts';
import { checkedItems, idsOf } from '../../../core/deals/entity-input.ts';
import { validationError } from '../../../core/errors.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { authErrors, withNotFound } from '../errors.ts';
import { limitEntities } from '../entity-limit.ts';
import { eachItem, idsAsText, listUnder } from '../lenient-body.ts';

const WriteBody = Type.Object({ contacts: Type.Optional(Type.Array(Type.Unknown())), data: Type.Optional(Type.Array(Type.Unknown())) });
const ListQuery = Type.Object({
  ...EntityListQuery.properties,
  ...ListContactsQuery.properties,
  view: Type.Optional(Type.Enum(['contacts', 'names'], { description: 'names: the chat names set with `{data: […]}`, as listed before contacts.' })),
});

/**
 * The CRM's contacts (`{contacts: [{id, responsible_user_id, name, contact_data, uri}]}`), each owning chat handles
 * that also name its chats in the frame; and the earlier chat names (`{data: [{chat_type, chat_id, name}]}`).
 */
export const contactRoutes: FastifyPluginAsyncTypebox<ContactDeps> = async (app, deps) => {
  const tags = ['contacts'];
  const Written = Envelope(Type.Array(Type.Union([StoredContact, ListedContact])));
  // A bare array is the list of contacts; ids sent as numbers read as text.
  app.addHook('preValidation', async (request) => {
    if ((request.method !== 'POST' && request.method !== 'PATCH') || request.url.includes('bulk_delete')) return;
    request.body = eachItem(listUnder(request.body, 'contacts'), 'contacts', (c) =>
      eachItem(idsAsText(c, ['id', 'responsible_user_id']), 'contact_data', (h) => idsAsText(h, ['chat_id'])),
    );
  });
  for (const field of ['contacts', 'data']) app.addHook('preValidation', async (request) => limitEntities(field)(request));

  const write = async (accountId: string, body: { contacts?: unknown[] | undefined; data?: unknown[] | undefined }) => {
    if (body.contacts !== undefined) return upsertContactCards(deps, accountId, body.contacts);
    if (body.data !== undefined) return upsertContacts(deps, accountId, checkedItems<Contact>(Contact, body.data, 'data', 'VALIDATION_ERROR', 'contact'));
    return upsertContactCards(deps, accountId, undefined);
  };
  const description =
    '`{contacts: [{id, responsible_user_id, name, contact_data: [{chat_type, chat_id | username | phone}], uri}]}`, at most 100, upserted by id; ' +
    'bad data answers 400 INVALID_CONTACT_DATA. The earlier `{data: [{chat_type, chat_id | username | phone, name}]}` still names chats.';

  app.post('/contacts', { schema: { tags, summary: 'Create or change contacts (at most 100)', description, body: WriteBody, response: { 201: Written, ...authErrors } } }, async (request, reply) =>
    reply.code(201).send(envelope(deps.clock, await write(accountOf(request).accountId, request.body))),
  );

  app.patch('/contacts', { schema: { tags, summary: 'Change contacts (at most 100)', description, body: WriteBody, response: { 200: Written, ...authErrors } } }, async (request) =>
    envelope(deps.clock, await write(accountOf(request).accountId, request.body)),
  );

  app.get(
    '/contacts',
    {
      schema: {
        tags,
        summary: 'List contacts',
        description:
          'The contacts in id order (`offset`, `limit` ≤ 100); an account that never sent a contact lists its chat names as before. ' +
          'With `view=names` (or `chat_type` / `after`), the chat names set by `{data: […]}` or by contacts\' handles, ' +
          'in key order, 100 at a time (pass the `cursor` of the last one as `after`).',
        querystring: ListQuery,
        response: { 200: Envelope(Type.Array(Type.Union([StoredContact, ListedContact]))), ...authErrors },
      },
    },
    async (request) => {
      const { offset, limit, view, chat_type: chatType, after } = request.query;
      const accountId = accountOf(request).accountId;
      const names = () => listContacts(deps, accountId, { chat_type: chatType, after, limit });
      if (view === 'names' || chatType !== undefined || after !== undefined) return envelope(deps.clock, await names());
      const cards = await listContactCards(deps, accountId, { offset, limit });
      // An account that keeps only the earlier chat names (it never sent a contact) lists them, as it always did.
      if (cards.length === 0 && !offset && view === undefined) return envelope(deps.clock, await names());
      return envelope(deps.clock, cards);
    },
  );

  app.get('/contacts/:id', { schema: { tags, summary: 'One contact', params: EntityIdParams, response: { 200: Envelope(StoredContact), ...withNotFound } } }, async (request) =>
    envelope(deps.clock, await getContactCard(deps, accountOf(request).accountId, request.params.id)),
  );

  app.delete(
    '/contacts',
    {
      schema: {
        tags,
        summary: 'Delete contacts (at most 100; unknown ones are ignored)',
        description: 'Contact ids as a bare array or `{contacts: […]}` (each an id or `{id}`); or the earlier chat names as `{data: [{chat_type, chat_id | username | phone}]}`.',
        body: IdsBody,
        response: { 200: NullEnvelope, ...authErrors },
      },
    },
    async (request) => {
      const accountId = accountOf(request).accountId;
      const body = request.body as Record<string, unknown>;
      if (!Array.isArray(request.body) && Array.isArray(body.data) && body.data.some((d) => typeof d === 'object' && d !== null && 'chat_type' in d)) {
        await deleteContacts(deps, accountId, checkedItems<ContactKey>(ContactKey, body.data, 'data', 'VALIDATION_ERROR', 'contact'));
      } else {
        await deleteContactCards(deps, accountId, idsOf(request.body, ['contacts', 'ids', 'data']));
      }
      return envelope(deps.clock, null);
    },
  );

  app.delete('/contacts/:id', { schema: { tags, summary: 'Delete one contact', params: EntityIdParams, response: { 200: NullEnvelope, ...authErrors } } }, async (request) => {
    await deleteContactCards(deps, accountOf(request).accountId, [request.params.id]);
    return envelope(deps.clock, null);
  });

  app.patch(
    '/contacts/bulk_delete',
    {
      schema: { tags, summary: 'Delete contacts (at most 100)', description: 'Ids as a bare array, or under `ids` or `contacts`.', body: IdsBody, response: { 200: NullEnvelope, ...authErrors } },
    },
    async (request) => {
      const body = request.body;
      if (body === undefined || body === null) throw validationError([{ field: 'ids', message: 'is required' }]);
      await deleteContactCards(deps, accountOf(request).accountId, idsOf(body, ['ids', 'contacts', 'data']));
      return envelope(deps.clock, null);
    },
  );
};
