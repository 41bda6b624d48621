import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { StoredContact } from '../../../../contract/crm-entities.ts';
import { V3Contact, V3EntityIdParams, V3Ids, V3Items, V3NotFoundIds, V3OffsetQuery, V3Page } from '../../../../contract/v3/crm.ts';
import { v3Errors, v3ErrorsWithNotFound } from '../../../../contract/v3/errors.ts';
import { deleteContactCards, getContactCard, listContactCards, upsertContactCards, type ContactCardDeps } from '../../../core/contacts/cards.ts';
import { assertEntityCount } from '../../../core/entity-limit.ts';
import { idsAsText } from '../lenient-body.ts';
import { v3CallerOf } from './caller.ts';
import { idList, inEntityWords } from './entity-errors.ts';
import { V3Error } from './errors.ts';

const PAGE = 100;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v3 contact as the gateway's contact card (camelCase to the use-case's names); anything else is left for it to refuse. */
function toCard(item: unknown): unknown {
  if (!isObject(item)) return item;
  const { responsibleUserId, contactData, ...rest } = idsAsText(item, ['id', 'responsibleUserId']) as Json;
  return {
    ...rest,
    ...(responsibleUserId !== undefined ? { responsible_user_id: responsibleUserId } : {}),
    ...(contactData !== undefined
      ? {
          contact_data: Array.isArray(contactData)
            ? contactData.map((h) => {
                if (!isObject(h)) return h;
                const { chatType, chatId, ...handle } = h;
                return { ...handle, ...(chatType !== undefined ? { chat_type: chatType } : {}), ...(chatId !== undefined ? { chat_id: typeof chatId === 'number' ? String(chatId) : chatId } : {}) };
              })
            : contactData,
        }
      : {}),
  };
}

export function toV3Contact(c: StoredContact): V3Contact {
  return {
    id: c.id,
    responsibleUserId: c.responsible_user_id,
    name: c.name,
    contactData: c.contact_data.map((h) => ({
      chatType: h.chat_type,
      ...(h.chat_id !== undefined ? { chatId: h.chat_id } : {}),
      ...(h.username !== undefined ? { username: h.username } : {}),
      ...(h.phone !== undefined ? { phone: h.phone } : {}),
    })),
    ...(c.uri !== null ? { uri: c.uri } : {}),
  };
}

/** The CRM's contacts through the v3 face: the same use-cases as /v2/contacts. */
export const v3ContactRoutes: FastifyPluginAsyncTypebox<ContactCardDeps> = async (app, deps) => {
  const tags = ['v3 contacts'];

  app.post(
    '/contacts',
    {
      config: { v3Invalid: 'INVALID_CONTACTS_DATA' },
      schema: {
        tags,
        summary: 'Add or change contacts (at most 100)',
        description:
          'A bare array of `{id, responsibleUserId, name, contactData: [{chatType, chatId | username | phone}], uri?}`, upserted by id; ' +
          'at least one chat each. Bad items answer 400 INVALID_CONTACTS_DATA `data: [{index, fields}]`. Answers 200 with the contacts as stored.',
        body: V3Items,
        response: { 200: Type.Array(V3Contact), ...v3Errors },
      },
    },
    async (request) => {
      const empty = request.body.findIndex((c) => isObject(c) && Array.isArray(c.contactData) && c.contactData.length === 0);
      if (empty >= 0) throw new V3Error(400, 'INVALID_CONTACTS_DATA', 'contactData needs at least one chat', [{ index: empty, fields: ['contactData'] }]);
      const stored = await inEntityWords('INVALID_CONTACTS_DATA', () => upsertContactCards(deps, v3CallerOf(request).accountId, request.body.map(toCard)));
      return stored.map(toV3Contact);
    },
  );

  app.get(
    '/contacts',
    { schema: { tags, summary: 'List contacts by id, 100 from `offset`', querystring: V3OffsetQuery, response: { 200: V3Page(V3Contact), ...v3Errors } } },
    async (request) => {
      const accountId = v3CallerOf(request).accountId;
      const [count, page] = await Promise.all([deps.store.contactCards.count(accountId), listContactCards(deps, accountId, { offset: request.query.offset ?? 0, limit: PAGE })]);
      return { count, data: page.map(toV3Contact) };
    },
  );

  app.get(
    '/contacts/:id',
    { schema: { tags, summary: 'One contact', params: V3EntityIdParams, response: { 200: V3Contact, ...v3ErrorsWithNotFound } } },
    async (request) => toV3Contact(await getContactCard(deps, v3CallerOf(request).accountId, request.params.id)),
  );

  async function remove(accountId: string, ids: string[]): Promise<string[]> {
    assertEntityCount(ids.length);
    const known = new Set((await deps.store.contactCards.getMany(accountId, ids)).map((c) => c.id));
    await deleteContactCards(deps, accountId, ids);
    return ids.filter((id) => !known.has(id));
  }

  app.delete(
    '/contacts/:id',
    {
      schema: {
        tags,
        summary: 'Delete one contact',
        description: 'Its chats stay. Answers `[]`, or `[id]` when the id was not known.',
        params: V3EntityIdParams,
        response: { 200: V3NotFoundIds, ...v3Errors },
      },
    },
    async (request) => remove(v3CallerOf(request).accountId, [request.params.id]),
  );

  app.patch(
    '/contacts/bulk_delete',
    { schema: { tags, summary: 'Delete contacts (at most 100)', description: 'A bare array of ids; answers the ids that were not known.', body: V3Ids, response: { 200: V3NotFoundIds, ...v3Errors } } },
    async (request) => remove(v3CallerOf(request).accountId, idList(request.body)),
  );
};
