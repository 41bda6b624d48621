import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { StoredDeal } from '../../../../contract/crm-entities.ts';
import { V3Deal, V3EntityIdParams, V3Ids, V3Items, V3NotFoundIds, V3OffsetQuery, V3Page, V3Pipeline } from '../../../../contract/v3/crm.ts';
import { v3Errors, v3ErrorsWithNotFound } from '../../../../contract/v3/errors.ts';
import { deleteDeals, getDeal, listDeals, listPipelines, upsertDeals, upsertPipelines, type DealDeps } from '../../../core/deals/deals.ts';
import { assertEntityCount } from '../../../core/entity-limit.ts';
import { idsAsText } from '../lenient-body.ts';
import { v3CallerOf } from './caller.ts';
import { idList, inEntityWords } from './entity-errors.ts';

const PAGE = 100;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v3 deal as the use-case takes it; ids given as numbers read as text, and `link` (a documented example's name) as `uri`. */
function toDealInput(item: unknown): unknown {
  if (!isObject(item)) return item;
  const { responsibleUserId, link, uri, ...rest } = idsAsText(item, ['id', 'responsibleUserId', 'contacts']) as Json;
  const link_ = uri ?? link;
  return { ...rest, ...(responsibleUserId !== undefined ? { responsible_user_id: responsibleUserId } : {}), ...(link_ !== undefined ? { uri: link_ } : {}) };
}

export function toV3Deal(d: StoredDeal): V3Deal {
  return { id: d.id, responsibleUserId: d.responsible_user_id, name: d.name, ...(d.uri !== null ? { uri: d.uri } : {}), contacts: d.contacts, closed: d.closed };
}

/** Deals and pipelines (sales funnels) through the v3 face: the same use-cases as /v2/deals and /v2/pipelines. */
export const v3DealRoutes: FastifyPluginAsyncTypebox<DealDeps> = async (app, deps) => {
  const tags = ['v3 deals'];

  app.post(
    '/deals',
    {
      config: { v3Invalid: 'INVALID_DEALS_DATA' },
      schema: {
        tags,
        summary: 'Add or change deals (at most 100)',
        description:
          'A bare array of `{id, responsibleUserId, name, uri, contacts: [contact ids], closed}`, upserted by id. Bad items answer 400 ' +
          'INVALID_DEALS_DATA `data: [{index, fields}]`. Answers 200 with the deals as stored.',
        body: V3Items,
        response: { 200: Type.Array(V3Deal), ...v3Errors },
      },
    },
    async (request) => (await inEntityWords('INVALID_DEALS_DATA', () => upsertDeals(deps, v3CallerOf(request).accountId, request.body.map(toDealInput)))).map(toV3Deal),
  );

  app.get(
    '/deals',
    { schema: { tags, summary: 'List deals by id, 100 from `offset`', querystring: V3OffsetQuery, response: { 200: V3Page(V3Deal), ...v3Errors } } },
    async (request) => {
      const accountId = v3CallerOf(request).accountId;
      const [count, page] = await Promise.all([deps.store.deals.count(accountId), listDeals(deps, accountId, { offset: request.query.offset ?? 0, limit: PAGE })]);
      return { count, data: page.map(toV3Deal) };
    },
  );

  app.get(
    '/deals/:id',
    { schema: { tags, summary: 'One deal', params: V3EntityIdParams, response: { 200: V3Deal, ...v3ErrorsWithNotFound } } },
    async (request) => toV3Deal(await getDeal(deps, v3CallerOf(request).accountId, request.params.id)),
  );

  async function remove(accountId: string, ids: string[]): Promise<string[]> {
    assertEntityCount(ids.length);
    const known = new Set((await deps.store.deals.getMany(accountId, ids)).map((d) => d.id));
    await deleteDeals(deps, accountId, ids);
    return ids.filter((id) => !known.has(id));
  }

  app.delete(
    '/deals/:id',
    { schema: { tags, summary: 'Delete one deal', description: 'Answers `[]`, or `[id]` when the id was not known.', params: V3EntityIdParams, response: { 200: V3NotFoundIds, ...v3Errors } } },
    async (request) => remove(v3CallerOf(request).accountId, [request.params.id]),
  );

  app.patch(
    '/deals/bulk_delete',
    { schema: { tags, summary: 'Delete deals (at most 100)', description: 'A bare array of ids; answers the ids that were not known.', body: V3Ids, response: { 200: V3NotFoundIds, ...v3Errors } } },
    async (request) => remove(v3CallerOf(request).accountId, idList(request.body)),
  );

  app.post(
    '/pipelines',
    {
      config: { v3Invalid: 'INVALID_PIPELINES_DATA' },
      schema: {
        tags: ['v3 pipelines'],
        summary: 'Load sales funnels',
        description:
          'A bare array of `{id, name, stages?: [{id, name}]}` (each ≤ 100 characters), upserted by id; `stages` left out keeps a funnel\'s ' +
          'stages, an empty `stages` answers 400 INVALID_PIPELINES_DATA. Answers 200 with every funnel of the account.',
        body: V3Items,
        response: { 200: Type.Array(V3Pipeline), ...v3Errors },
      },
    },
    async (request) => {
      const accountId = v3CallerOf(request).accountId;
      const items = request.body.map((p) => (isObject(p) ? { ...(idsAsText(p, ['id']) as Json), ...(Array.isArray(p.stages) ? { stages: p.stages.map((s) => idsAsText(s, ['id'])) } : {}) } : p));
      await inEntityWords('INVALID_PIPELINES_DATA', () => upsertPipelines(deps, accountId, items));
      return listPipelines(deps, accountId);
    },
  );

  app.get('/pipelines', { schema: { tags: ['v3 pipelines'], summary: 'List sales funnels', response: { 200: Type.Array(V3Pipeline), ...v3Errors } } }, async (request) =>
    listPipelines(deps, v3CallerOf(request).accountId),
  );
};
