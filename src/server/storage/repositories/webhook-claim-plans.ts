import type { ClaimRequest } from '../../core/webhooks/ports.ts';

/** A due lane head found by a claim, with what its POST needs of its subscription. */
export interface Candidate {
  id: string;
  subscription_id: string;
  subscription_status: string;
  account_id: string;
  url: string;
  failing_since: Date | null;
  endpoint: string;
  event_name: string;
  batch_id: string | null;
  batching: boolean;
  secret: string | null;
  previous_secret: string | null;
  previous_expires_at: Date | null;
  lane: string;
  /** Where the claim's scan read it (see `laneHeads`). */
  step: number;
}

/** What one POST will carry, before its rows are taken. */
export interface Plan {
  first: Candidate;
  ids: string[];
  /** A batch formed now gets a new id, written as its rows are taken; a retried batch keeps its own. */
  batch: 'new' | 'none' | string;
}

/**
 * Groups candidates (in claim order) into POSTs: retried batches whole, new batches per (subscription,
 * event name) where the account batches, single deliveries otherwise. No endpoint gets more POSTs than
 * its room, the whole claim no more than `limit`.
 */
export function planPosts(candidates: Candidate[], request: Pick<ClaimRequest, 'batchLimit' | 'perEndpoint' | 'inFlight' | 'limit'>): Plan[] {
  const plans: Plan[] = [];
  const open = new Map<string, Plan>();
  const posts = new Map<string, number>();
  for (const c of candidates) {
    const key = c.batch_id ? `batch:${c.batch_id}` : c.batching && request.batchLimit > 1 ? `new:${c.subscription_id}:${c.event_name}` : null;
    const joined = key ? open.get(key) : undefined;
    if (joined && (joined.batch !== 'new' || joined.ids.length < request.batchLimit)) {
      joined.ids.push(c.id);
      continue;
    }
    const room = request.perEndpoint - (request.inFlight.get(c.endpoint) ?? 0) - (posts.get(c.endpoint) ?? 0);
    if (room <= 0 || plans.length >= request.limit) continue;
    const p: Plan = { first: c, ids: [c.id], batch: c.batch_id ?? (key ? 'new' : 'none') };
    plans.push(p);
    if (key) open.set(key, p);
    posts.set(c.endpoint, (posts.get(c.endpoint) ?? 0) + 1);
  }
  return plans;
}

/**
 * The POSTs that follow a batch in its slot, from the runs of its lanes (one run per member, in the batch's
 * order): the first delivery behind each member, then the second, and so on. The rows of one place share
 * the batch id the take gave them; a row without one (its place reached by one lane only) goes alone. So a
 * batch holds at most one delivery per lane, and a lane's deliveries go in its order, one POST after another.
 */
export function followUpBatches<T extends { id: string; batch_id: string | null }>(runs: readonly (readonly T[])[]): T[][] {
  const posts: T[][] = [];
  const longest = Math.max(0, ...runs.map((run) => run.length));
  for (let place = 0; place < longest; place++) {
    const byBatch = new Map<string, T[]>();
    for (const run of runs) {
      const row = run[place];
      if (!row) continue;
      const key = row.batch_id ?? row.id;
      byBatch.set(key, [...(byBatch.get(key) ?? []), row]);
    }
    posts.push(...byBatch.values());
  }
  return posts;
}
