import type { Store } from '../ports.ts';
import type { CredentialsCipher } from '../channels/ports.ts';
import type { Clock } from '../ports.ts';
import type { ClaimedWork, Settlement } from './ports.ts';
import { crmKeyOf } from './v3-address.ts';
import { v3BodyOf, type V3Lookups } from './v3-bodies.ts';
import type { WebhookResponse, WebhookSender } from './delivery.ts';

export interface V3DeliveryDeps {
  store: Store;
  clock: Clock;
  sealer: CredentialsCipher;
  sender: WebhookSender;
  timeoutMs: number;
}

/** What v3 bodies read beside the events: the gateway's own records. */
export function storeLookups(store: Store): V3Lookups {
  return {
    async message(accountId, messageId) {
      const message = await store.messages.get(accountId, messageId);
      if (!message) return null;
      const chat = await store.chats.get(accountId, message.chatRef);
      if (!chat) return null;
      return { channelId: message.channelId, chatType: chat.chatType, chatId: chat.chatId, chatName: chat.name, direction: message.direction };
    },
    templateName: async (accountId, templateId) => (await store.templates.get(accountId, templateId))?.name ?? null,
    userName: async (accountId, userId) => (await store.crmUsers.getMany(accountId, [userId]))[0]?.name ?? null,
  };
}

/**
 * One POST to a v3 address: the body keyed by type, `Authorization: Bearer <crmKey>` when the CRM set a key, and
 * no signature (v3 receivers know none). A delivery v3 has nothing to say of is settled as delivered without a POST.
 */
export async function postV3(deps: V3DeliveryDeps, work: ClaimedWork): Promise<{ response: WebhookResponse; body: string } | null> {
  const accountId = work.subscription.accountId;
  const body = await v3BodyOf(accountId, work.eventName, work.items, storeLookups(deps.store));
  if (!body) return null;
  const text = JSON.stringify(body);
  const crmKey = await crmKeyOf(deps, accountId);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': 'messaging-gateway-webhooks',
    ...(crmKey ? { authorization: `Bearer ${crmKey}` } : {}),
  };
  const wantsAnswer = work.eventName === 'crm_entities.contact_add' || work.eventName === 'crm_entities.deal_add';
  const response = await deps.sender.post({ url: work.subscription.url, headers, body: text, timeoutMs: deps.timeoutMs, ...(wantsAnswer ? { readAnswer: true } : {}) });
  return { response, body: text };
}

/** A delivery settled without a POST: v3 has no word for its event (a message not yet sent, a channel starting). */
export const nothingToSay = (work: ClaimedWork, at: Date): Settlement => ({
  work,
  at,
  outcome: 'delivered',
  nextAttemptAt: null,
  statusCode: null,
  error: null,
  latencyMs: 0,
  disabledReason: null,
});
