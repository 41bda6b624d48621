import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../../contract/errors.ts';
import { deprecatedEventAliases } from '../../../contract/events.ts';
import { limits } from '../../../contract/limits.ts';
import type { WebhookSubscription } from '../../../contract/webhooks.ts';
import { AppError, validationError } from '../errors.ts';
import type { Clock, Store, WebhookSubscriptionRecord } from '../ports.ts';
import { checkSubscriptionUrl, type UrlPolicy } from './url-policy.ts';

export interface WebhookDeps {
  store: Store;
  clock: Clock;
  urlPolicy: UrlPolicy;
}

const toSubscription = (r: WebhookSubscriptionRecord): WebhookSubscription => ({ id: r.id, url: r.url, event: r.event });

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

/** All-or-nothing: every URL is checked before anything is written, and the first bad item names itself. */
function assertUrls(items: { url: string }[], policy: UrlPolicy): void {
  const fields: FieldError[] = [];
  items.forEach((item, index) => {
    const problem = checkSubscriptionUrl(item.url, policy);
    if (problem) fields.push({ field: `/data/${index}/url`, message: problem });
  });
  if (fields.length > 0) throw new AppError('WEBHOOK_URL_NOT_ALLOWED', 'Webhook URL is not allowed', { fields });
}

export async function listSubscriptions({ store }: WebhookDeps, accountId: string): Promise<WebhookSubscription[]> {
  return (await store.webhooks.list(accountId)).map(toSubscription);
}

export async function createSubscriptions(
  { store, clock, urlPolicy }: WebhookDeps,
  accountId: string,
  items: { url: string; event: string }[],
): Promise<WebhookSubscription[]> {
  assertEntityCount(items.length);
  assertUrls(items, urlPolicy);
  const now = clock.now();
  const records = items.map((item) => ({
    id: randomUUID(),
    accountId,
    url: item.url,
    event: canonicalEvent(item.event),
    createdAt: now,
  }));
  await store.transaction((tx) => tx.webhooks.insertMany(records));
  return records.map(toSubscription);
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

export async function updateSubscriptions(
  { store, urlPolicy }: WebhookDeps,
  accountId: string,
  items: { id: string; url: string; event: string }[],
): Promise<WebhookSubscription[]> {
  assertEntityCount(items.length);
  assertUrls(items, urlPolicy);
  await assertOwned(store, accountId, items.map((i) => i.id));
  const changes = items.map((i) => ({ id: i.id, url: i.url, event: canonicalEvent(i.event) }));
  await store.transaction((tx) => tx.webhooks.updateMany(accountId, changes));
  return changes;
}

export async function deleteSubscriptions({ store }: WebhookDeps, accountId: string, ids: string[]): Promise<void> {
  assertEntityCount(ids.length);
  await assertOwned(store, accountId, ids);
  await store.transaction((tx) => tx.webhooks.deleteMany(accountId, ids));
}
