import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../../contract/errors.ts';
import { deprecatedEventAliases } from '../../../contract/events.ts';
import { limits } from '../../../contract/limits.ts';
import type { WebhookSubscription } from '../../../contract/webhooks.ts';
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

export async function createSubscriptions(deps: WebhookDeps, accountId: string, items: { url: string; event: string }[]): Promise<WebhookSubscription[]> {
  const { store, clock } = deps;
  assertEntityCount(items.length);
  await assertUrls(items, deps);
  const now = clock.now();
  const records: WebhookSubscriptionRecord[] = items.map((item) => ({
    id: randomUUID(),
    accountId,
    url: item.url,
    event: canonicalEvent(item.event),
    createdAt: now,
    status: 'active',
    disabledReason: null,
    disabledAt: null,
    failingSince: null,
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

/** Changing a subscription also enables it again after it was disabled. */
export async function updateSubscriptions(
  deps: WebhookDeps,
  accountId: string,
  items: { id: string; url: string; event: string }[],
): Promise<WebhookSubscription[]> {
  const { store } = deps;
  assertEntityCount(items.length);
  await assertUrls(items, deps);
  await assertOwned(store, accountId, items.map((i) => i.id));
  const changes = items.map((i) => ({ id: i.id, url: i.url, event: canonicalEvent(i.event) }));
  await store.transaction((tx) => tx.webhooks.updateMany(accountId, changes));
  return changes.map((c) => ({ ...c, status: 'active', disabled_reason: null }));
}

export async function deleteSubscriptions({ store }: WebhookDeps, accountId: string, ids: string[]): Promise<void> {
  assertEntityCount(ids.length);
  await assertOwned(store, accountId, ids);
  await store.transaction((tx) => tx.webhooks.deleteMany(accountId, ids));
}
