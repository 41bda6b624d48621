import { randomUUID } from 'node:crypto';
import type { V3WebhooksPatch, V3WebhooksState } from '../../../contract/v3/webhooks.ts';
import type { CredentialsCipher } from '../channels/ports.ts';
import type { Clock, Store, WebhookSubscriptionRecord, WebhookV3SettingsRecord } from '../ports.ts';
import type { WebhookSender } from './delivery.ts';
import { checkSubscriptionTarget, type HostResolver, type UrlPolicy } from './url-policy.ts';

/**
 * The v3 face's one webhook address per account. Its switches become subscriptions of the account (face `v3`),
 * one per event name they cover, so the v3 address is served by the same deliveries as the v2 subscriptions:
 * lanes per chat, retries, the log. Only the body differs (see `v3-bodies.ts`).
 */
export const v3SwitchEvents = {
  messagesAndStatuses: ['message.add', 'message.edit', 'message.delete', 'message.status_update'],
  contactsAndDealsCreation: ['crm_entities.contact_add', 'crm_entities.deal_add'],
  channelsUpdates: ['channel.status_update', 'channel.qr_update', 'channel.waba_tier_update'],
  templateStatus: ['waba_template.status_update'],
} as const;
type SwitchName = keyof typeof v3SwitchEvents;

/** The documentation's limit on the address. */
export const V3_URI_MAX = 200;
/** How long the test POST may take (the documentation's webhook time limit). */
export const V3_TEST_TIMEOUT_MS = 30_000;

export interface V3AddressDeps {
  store: Store;
  clock: Clock;
  urlPolicy: UrlPolicy;
  resolveHost: HostResolver;
  /** POSTs the `{test: true}` body, with the same address checks as every delivery. */
  sender: WebhookSender;
  /** Seals the CRM's key at rest. */
  sealer: CredentialsCipher;
}

/** A refusal in the webhook route's own words (camelCase codes, as the documentation spells them). */
export class V3AddressRefused extends Error {
  readonly code: 'uriNotValid' | 'testPostNotPassed';
  readonly data: unknown;
  constructor(code: 'uriNotValid' | 'testPostNotPassed', description: string, data?: unknown) {
    super(description);
    this.code = code;
    this.data = data;
  }
}

const on = (v: boolean | 'true' | 'false' | undefined): boolean => v === true || v === 'true';

/** The four switches from a PATCH body; the template switch under any of the names it has been given. */
export function switchesOf(body: Pick<V3WebhooksPatch, 'subscriptions'>): Record<SwitchName, boolean> {
  const s = body.subscriptions ?? {};
  return {
    messagesAndStatuses: on(s.messagesAndStatuses),
    contactsAndDealsCreation: on(s.contactsAndDealsCreation),
    channelsUpdates: on(s.channelsUpdates),
    templateStatus: on(s.templateStatus) || on(s.tepmplateStatus) || on(s.templateStatuses) || on(s.wabaTemplatesStatus),
  };
}

/** A formally valid absolute http(s) address of at most 200 characters, or the reason it is not. */
function uriProblem(uri: string): string | null {
  if (uri.length > V3_URI_MAX) return `Provided URI is longer than ${V3_URI_MAX} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'Provided URI is not valid URI';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Provided URI is not valid URI';
  return null;
}

export async function getV3Address({ store }: Pick<V3AddressDeps, 'store'>, accountId: string): Promise<V3WebhooksState> {
  const settings = await store.webhooks.v3Settings(accountId);
  const template = settings?.templateStatus ?? false;
  return {
    webhooksUri: settings?.uri ?? null,
    subscriptions: {
      messagesAndStatuses: settings?.messagesAndStatuses ?? false,
      contactsAndDealsCreation: settings?.contactsAndDealsCreation ?? false,
      channelsUpdates: settings?.channelsUpdates ?? false,
      templateStatus: template,
      wabaTemplatesStatus: template,
    },
  };
}

/** POSTs `{"test": true}`; anything but 200 refuses the address, with the status the receiver answered. */
async function testPost(deps: V3AddressDeps, uri: string, crmKey: string | null): Promise<void> {
  const response = await deps.sender.post({
    url: uri,
    headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'messaging-gateway-webhooks', ...(crmKey ? { authorization: `Bearer ${crmKey}` } : {}) },
    body: JSON.stringify({ test: true }),
    timeoutMs: V3_TEST_TIMEOUT_MS,
  });
  if ('status' in response && response.status === 200) return;
  const data = 'status' in response ? { statusCode: response.status } : { statusCode: null, error: response.error };
  throw new V3AddressRefused('testPostNotPassed', 'URI does not return 200 OK on test request', data);
}

/**
 * Sets the account's v3 address and switches. A new or changed address is checked (its form, where its host points)
 * and must answer the test POST with 200 before anything is stored; then, in one transaction, the settings are kept
 * and the address's subscriptions follow the switches: one kept (and enabled again) per event still covered, moved
 * with what it has on its way when the address changed, removed when its switch went off. An empty address removes
 * them all, and an absent one keeps the stored address. `crmKey`: absent keeps the stored one, null removes it.
 */
export async function setV3Address(deps: V3AddressDeps, accountId: string, body: V3WebhooksPatch): Promise<void> {
  const { store, clock, sealer } = deps;
  const stored = await store.webhooks.v3Settings(accountId);
  const given = body.webhooksUri === undefined ? (stored?.uri ?? null) : body.webhooksUri;
  const uri = typeof given === 'string' && given.trim() !== '' ? given.trim() : null;
  const switches = switchesOf(body);
  const crmKey = body.crmKey === undefined ? (stored?.crmKey ?? null) : body.crmKey ? sealer.seal({ key: body.crmKey }) : null;
  if (uri !== null) {
    const problem = uriProblem(uri) ?? (await checkSubscriptionTarget(uri, deps.urlPolicy, deps.resolveHost));
    if (problem) throw new V3AddressRefused('uriNotValid', 'Provided URI is not valid URI', { reason: problem });
    await testPost(deps, uri, crmKey ? openCrmKey(sealer, crmKey) : null);
  }
  const now = clock.now();
  const record: WebhookV3SettingsRecord = { accountId, uri, ...switches, crmKey, updatedAt: now };
  const wanted = new Set<string>(uri === null ? [] : (Object.keys(switches) as SwitchName[]).filter((k) => switches[k]).flatMap((k) => v3SwitchEvents[k]));
  await store.transaction(async (tx) => {
    await tx.webhooks.saveV3Settings(record);
    const existing = await tx.webhooks.listV3(accountId);
    const gone = existing.filter((s) => !wanted.has(s.event)).map((s) => s.id);
    const kept = existing.filter((s) => wanted.has(s.event));
    const changed = kept.filter((s) => s.url !== uri || s.status !== 'active').map((s) => ({ id: s.id, url: uri!, event: s.event }));
    const have = new Set(kept.map((s) => s.event));
    const fresh: WebhookSubscriptionRecord[] = [...wanted]
      .filter((event) => !have.has(event))
      .map((event) => ({ id: randomUUID(), accountId, url: uri!, event, createdAt: now, status: 'active', disabledReason: null, disabledAt: null, failingSince: null, face: 'v3' }));
    if (gone.length > 0) await tx.webhooks.deleteMany(accountId, gone);
    if (changed.length > 0) await tx.webhooks.updateMany(accountId, changed);
    if (fresh.length > 0) await tx.webhooks.insertMany(fresh);
  });
}

export function openCrmKey(sealer: CredentialsCipher, sealed: string): string | null {
  const { key } = sealer.open(sealed);
  return typeof key === 'string' && key !== '' ? key : null;
}

/** The CRM's key for the `Authorization` header of the account's v3 deliveries, when it has set one. */
export async function crmKeyOf(deps: { store: Store; sealer: CredentialsCipher }, accountId: string): Promise<string | null> {
  const settings = await deps.store.webhooks.v3Settings(accountId);
  return settings?.crmKey ? openCrmKey(deps.sealer, settings.crmKey) : null;
}
