import { CrmDeal, Pipeline, type StoredDeal, type StoredPipeline } from '../../../contract/crm-entities.ts';
import { AppError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import { checkedItems, lastById } from './entity-input.ts';

export interface DealDeps {
  store: Store;
  clock: Clock;
}

/** `{deals: […]}`: upserted by id, at most 100; `closed` false unless given. Bad data answers INVALID_DEAL_DATA. */
export async function upsertDeals({ store, clock }: DealDeps, accountId: string, items: unknown): Promise<StoredDeal[]> {
  const deals = lastById(
    checkedItems<CrmDeal>(CrmDeal, items, 'deals', 'INVALID_DEAL_DATA', 'deal').map((d) => ({
      id: d.id,
      responsible_user_id: d.responsible_user_id ?? null,
      name: d.name.trim(),
      uri: d.uri ?? null,
      contacts: [...new Set(d.contacts ?? [])],
      closed: d.closed ?? false,
    })),
  );
  await store.transaction((tx) => tx.deals.upsert(accountId, deals, clock.now()));
  return deals;
}

export async function getDeal({ store }: DealDeps, accountId: string, id: string): Promise<StoredDeal> {
  const [found] = await store.deals.getMany(accountId, [id]);
  if (!found) throw new AppError('DEAL_NOT_FOUND', 'Deal not found');
  return found;
}

export const listDeals = ({ store }: DealDeps, accountId: string, page: { offset?: number | undefined; limit?: number | undefined }) =>
  store.deals.list(accountId, { offset: page.offset ?? 0, limit: page.limit ?? 100 });

export const deleteDeals = ({ store }: DealDeps, accountId: string, ids: string[]) => store.transaction((tx) => tx.deals.remove(accountId, ids));

/**
 * `{pipelines: [{id, name, stages?}]}`: upserted by id; a pipeline's stages, when given, replace its stages and may
 * not be empty (INVALID_PIPELINE_DATA); left out, they stay. Answers how many pipelines and stages were written.
 */
export async function upsertPipelines({ store, clock }: DealDeps, accountId: string, items: unknown): Promise<{ pipelines_created: number; stages_created: number }> {
  const pipelines = lastById(checkedItems<Pipeline>(Pipeline, items, 'pipelines', 'INVALID_PIPELINE_DATA', 'pipeline'));
  // A pipeline sent again without stages keeps the stages it has.
  const known = new Map((await store.pipelines.list(accountId)).map((p) => [p.id, p.stages]));
  const stored: StoredPipeline[] = pipelines.map((p) => ({
    id: p.id,
    name: p.name.trim(),
    stages: p.stages ? lastById(p.stages.map((s) => ({ id: s.id, name: s.name.trim() }))) : (known.get(p.id) ?? []),
  }));
  await store.transaction((tx) => tx.pipelines.upsert(accountId, stored, clock.now()));
  return { pipelines_created: stored.length, stages_created: pipelines.reduce((n, p) => n + (p.stages?.length ?? 0), 0) };
}

export const listPipelines = ({ store }: DealDeps, accountId: string) => store.pipelines.list(accountId);
