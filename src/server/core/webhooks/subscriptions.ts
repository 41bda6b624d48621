import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../../contract/errors.ts';
import { deprecatedEventAliases, isSubscribableEvent } from '../../../contract/events.ts';
import { limits } from '../../../contract/limits.ts';
import type { RefusedSubscription, WebhookSubscription } from '../../../contract/webhooks.ts';
import { AppError, validationError } from '../errors.ts';
import type { Clock, Store, WebhookSubscriptionRecord } from '../ports.ts';
import { checkSubscriptionTarget, type HostResolver, type UrlPolicy } from './url-policy.ts';

export interface WebhookDeps {
  store: Store;
  clock: Clock;
  urlPolicy: UrlPolicy;
  /** Where host names point now (node's resolver; tests inject their own). */
  resolveHost: HostResolver;
}

const toSubscription = (r: WebhookSubscriptionRecord): WebhookSubscription => ({
  id: r.id,
  url: r.url,
  event: r.event,
  status: r.status,
  disabled_reason: r.disabledReason,
});

/** `channel.update` is stored as what it means. */
const canonicalEvent = (event: string): string =>
  (deprecatedEventAliases as Record<string, string>)[event] ?? event;

function assertEntityCount(count: number): void {
  if (count > limits.maxEntitiesPerCall) {
    throw new AppError('TOO_MANY_ENTITIES', `At most ${limits.maxEntitiesPerCall} entities per call`, {
      max: limits.maxEntitiesPerCall,
      received: count,
    });
  }
}

/**
 * All-or-nothing: every URL is checked (its shape, then the addresses its host resolves to) before anything
 * is written, and each bad item is named with the reason.
 */
async function assertUrls(items: { url: string }[], { urlPolicy, resolveHost }: WebhookDeps): Promise<void> {
  const problems = await Promise.all(items.map((item) => checkSubscriptionTarget(item.url, urlPolicy, resolveHost)));
  const fields: FieldError[] = [];
  problems.forEach((problem, index) => {
    if (problem) fields.push({ field: `data.${index}.url`, message: problem });
  });
  if (fields.length > 0) {
    throw new AppError('WEBHOOK_URL_NOT_ALLOWED', `Webhook URL is not allowed: ${fields[0]!.message}`, { fields });
  }
}

export async function listSubscriptions({ store }: WebhookDeps, accountId: string): Promise<WebhookSubscription[]> {
  return (await store.webhooks.list(accountId)).map(toSubscription);
}

/** What a subscription call did: the subscriptions it answers with, and the items it refused (unknown events). */
export interface SubscriptionOutcome {
  subscriptions: WebhookSubscription[];
  refused: RefusedSubscription[];
}

/**
 * Items naming events the gateway does not know are refused one by one, so a CRM subscribing to a list
 * written for another version still gets the events it can; a call with no known event at all is refused.
 */
function splitKnown<T extends { event: string }>(items: T[]): { known: T[]; refused: RefusedSubscription[] } {
  const refused: RefusedSubscription[] = [];
  const known = items.filter((item, index) => {
    if (isSubscribableEvent(item.event)) return true;
    refused.push({ index, event: item.event, reason: 'unknown event' });
    return false;
  });
  if (known.length === 0) {
    throw validationError(
      refused.map((r) => ({ field: `data.${r.index}.event`, message: r.reason })),
      'No known event to subscribe to',
    );
  }
  return { known, refused };
}

const sameTarget = (url: string, event: string) => `${event} ${url}`;

/**
 * Subscribing again to an event at the same address answers the subscription there is (enabled again if it
 * was disabled): CRMs re-run their set-up, and a second subscription would deliver every event twice.
 */
export async function createSubscriptions(deps: WebhookDeps, accountId: string, items: { url: string; event: string }[]): Promise<SubscriptionOutcome> {
  const { store, clock } = deps;
  assertEntityCount(items.length);
  const { known, refused } = splitKnown(items);
  await assertUrls(known, deps);
  const now = clock.now();
  const subscriptions = await store.transaction(async (tx) => {
    const existing = new Map((await tx.webhooks.list(accountId)).map((r) => [sameTarget(r.url, r.event), r]));
    const fresh: WebhookSubscriptionRecord[] = [];
    const revived: WebhookSubscriptionRecord[] = [];
    const answered = known.map((item) => {
      const event = canonicalEvent(item.event);
      const key = sameTarget(item.url, event);
      const found = existing.get(key);
      if (found) {
        if (found.status !== 'active' && !revived.includes(found)) revived.push(found);
        return found;
      }
      const record: WebhookSubscriptionRecord = {
        id: randomUUID(),
        accountId,
        url: item.url,
        event,
        createdAt: now,
        status: 'active',
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
      };
      existing.set(key, record);
      fresh.push(record);
      return record;
    });
    if (fresh.length > 0) await tx.webhooks.insertMany(fresh);
    if (revived.length > 0) await tx.webhooks.updateMany(accountId, revived.map((r) => ({ id: r.id, url: r.url, event: r.event })));
    return answered.map((r) => toSubscription(revived.includes(r) ? { ...r, status: 'active', disabledReason: null } : r));
  });
  return { subscriptions, refused };
}

async function assertOwned(store: Store, accountId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length) {
    throw validationError([{ field: '/data', message: 'each id may appear once' }]);
  }
  const owned = new Set((await store.webhooks.findOwned(accountId, unique)).map((r) => r.id));
  const missing = ids.findIndex((id) => !owned.has(id));
  if (missing >= 0) {
    throw new AppError('WEBHOOK_NOT_FOUND', 'Webhook subscription not found', { id: ids[missing], index: missing });
  }
}

/** Changing a subscription also enables it again after it was disabled. Items naming unknown events are refused alone. */
export async function updateSubscriptions(
  deps: WebhookDeps,
  accountId: string,
  items: { id: string; url: string; event: string }[],
): Promise<SubscriptionOutcome> {
  const { store } = deps;
  assertEntityCount(items.length);
  const { known, refused } = splitKnown(items);
  await assertUrls(known, deps);
  await assertOwned(store, accountId, known.map((i) => i.id));
  const changes = known.map((i) => ({ id: i.id, url: i.url, event: canonicalEvent(i.event) }));
  await store.transaction((tx) => tx.webhooks.updateMany(accountId, changes));
  return { subscriptions: changes.map((c) => ({ ...c, status: 'active', disabled_reason: null })), refused };
}

export async function deleteSubscriptions({ store }: WebhookDeps, accountId: string, ids: string[]): Promise<void> {
  assertEntityCount(ids.length);
  await assertOwned(store, accountId, ids);
  await store.transaction((tx) => tx.webhooks.deleteMany(accountId, ids));
}
