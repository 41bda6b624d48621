import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { EntityIdParams, EntityListQuery, IdsBody, PipelinesCreated, StoredDeal, StoredPipeline } from '../../../../contract/crm-entities.ts';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import { deleteDeals, getDeal, listDeals, listPipelines, upsertDeals, upsertPipelines, type DealDeps } from '../../../core/deals/deals.ts';
import { idsOf } from '../../../core/deals/entity-input.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { authErrors, withNotFound } from '../errors.ts';
import { limitEntities } from '../entity-limit.ts';
import { eachItem, idsAsText, listUnder } from '../lenient-body.ts';

const DealsBody = Type.Object({ deals: Type.Optional(Type.Array(Type.Unknown())) });

/** The CRM's deals (`{deals: [{id, responsible_user_id, name, uri, contacts, closed}]}`) and pipelines. */
export const dealRoutes: FastifyPluginAsyncTypebox<DealDeps> = async (app, deps) => {
  const tags = ['deals'];
  const Deals = Envelope(Type.Array(StoredDeal));
  // A bare array is the list of deals; ids sent as numbers read as text.
  app.addHook('preValidation', async (request) => {
    if ((request.method !== 'POST' && request.method !== 'PATCH') || request.url.includes('bulk_delete') || request.url.includes('pipelines')) return;
    request.body = eachItem(listUnder(request.body, 'deals'), 'deals', (d) => idsAsText(d, ['id', 'responsible_user_id', 'contacts']));
  });
  app.addHook('preValidation', async (request) => limitEntities('deals')(request));
  const description = 'At most 100, upserted by id (`id` and `name` ≤ 100 and 200 characters, `uri` ≤ 200); bad data answers 400 INVALID_DEAL_DATA.';

  app.post('/deals', { schema: { tags, summary: 'Create or change deals', description, body: DealsBody, response: { 201: Deals, ...authErrors } } }, async (request, reply) =>
    reply.code(201).send(envelope(deps.clock, await upsertDeals(deps, accountOf(request).accountId, request.body.deals))),
  );
  app.patch('/deals', { schema: { tags, summary: 'Change deals', description, body: DealsBody, response: { 200: Deals, ...authErrors } } }, async (request) =>
    envelope(deps.clock, await upsertDeals(deps, accountOf(request).accountId, request.body.deals)),
  );
  app.get('/deals', { schema: { tags, summary: 'List deals in id order', querystring: EntityListQuery, response: { 200: Deals, ...authErrors } } }, async (request) =>
    envelope(deps.clock, await listDeals(deps, accountOf(request).accountId, request.query)),
  );
  app.get('/deals/:id', { schema: { tags, summary: 'One deal', params: EntityIdParams, response: { 200: Envelope(StoredDeal), ...withNotFound } } }, async (request) =>
    envelope(deps.clock, await getDeal(deps, accountOf(request).accountId, request.params.id)),
  );
  const remove = (summary: string, method: 'delete' | 'patch', url: string) =>
    app[method](url, { schema: { tags, summary, description: 'Ids as a bare array, or under `ids` or `deals`; each an id or `{id}`.', body: IdsBody, response: { 200: NullEnvelope, ...authErrors } } }, async (request) => {
      await deleteDeals(deps, accountOf(request).accountId, idsOf(request.body, ['deals', 'ids', 'data']));
      return envelope(deps.clock, null);
    });
  remove('Delete deals (at most 100; unknown ones are ignored)', 'delete', '/deals');
  remove('Delete deals (at most 100)', 'patch', '/deals/bulk_delete');
  app.delete('/deals/:id', { schema: { tags, summary: 'Delete one deal', params: EntityIdParams, response: { 200: NullEnvelope, ...authErrors } } }, async (request) => {
    await deleteDeals(deps, accountOf(request).accountId, [request.params.id]);
    return envelope(deps.clock, null);
  });

  app.post(
    '/pipelines',
    {
      schema: {
        tags: ['pipelines'],
        summary: 'Create or change pipelines',
        description: '`{pipelines: [{id, name, stages?: [{id, name}]}]}`, each ≤ 100 characters; an empty `stages` is refused (400 INVALID_PIPELINE_DATA).',
        body: Type.Object({ pipelines: Type.Optional(Type.Array(Type.Unknown())) }),
        response: { 201: Envelope(PipelinesCreated), ...authErrors },
      },
      preValidation: limitEntities('pipelines'),
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await upsertPipelines(deps, accountOf(request).accountId, request.body.pipelines))),
  );
  app.get('/pipelines', { schema: { tags: ['pipelines'], summary: 'List pipelines with their stages', response: { 200: Envelope(Type.Array(StoredPipeline)), ...authErrors } } }, async (request) =>
    envelope(deps.clock, await listPipelines(deps, accountOf(request).accountId)),
  );
};
