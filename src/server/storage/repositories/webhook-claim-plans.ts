import { createHash } from 'node:crypto';
import { v4 as uuidv4 } from 'uuid';
import type { ClaimRequest } from '../../core/webhooks/ports.ts';

/** A due lane head found by a claim, with what its POST needs of its subscription. */
export interface Candidate {
  id: string;
  subscription_id: string;
  subscription_status: string;
  account_id: string;
  url: string;
  failing_since: Date | null;
  face: 'v2' | 'v3';
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

/** Sets the follow-up keys apart from any other hash of the same ids. */
const FOLLOW_UP_DOMAIN = 'webhook follow-up batch\n';

/**
 * The key of a follow-up batch, derived from its deliveries: the same rows give the same key, other rows
 * another. Nothing is written when a follow-up is formed, so after a crash it is formed again from what is
 * still open behind its heads (the same rows, since each POST settles whole and in lane order) and goes
 * out under the key it had. The interface has `meta.idempotency_key` a UUID v4, so the key is one: the
 * first 16 bytes of a SHA-256 of the sorted ids, with the version and variant bits of a v4 (a name-based
 * v5 would be refused by a receiver that checks the version).
 */
export function followUpBatchKey(deliveryIds: readonly string[]): string {
  const digest = createHash('sha256').update(FOLLOW_UP_DOMAIN).update(JSON.stringify([...deliveryIds].sort())).digest();
  return uuidv4({ random: digest.subarray(0, 16) });
}

/**
 * The POSTs that follow a batch in its slot, from the runs of its lanes (one run per member, in the batch's
 * order): the first delivery behind each member, then the second, and so on. The rows of one place go as
 * one batch, keyed by `followUpBatchKey`; a place only one lane reaches goes alone, under its event's id.
 * So a batch holds at most one delivery per lane, and a lane's deliveries go in its order, one POST after another.
 */
export function followUpBatches<T extends { id: string; event_id: string }>(runs: readonly (readonly T[])[]): { key: string; rows: T[] }[] {
  const posts: { key: string; rows: T[] }[] = [];
  const longest = Math.max(0, ...runs.map((run) => run.length));
  for (let place = 0; place < longest; place++) {
    const rows = runs.map((run) => run[place]).filter((row): row is T => row !== undefined);
    posts.push({ key: rows.length > 1 ? followUpBatchKey(rows.map((r) => r.id)) : rows[0]!.event_id, rows });
  }
  return posts;
}
