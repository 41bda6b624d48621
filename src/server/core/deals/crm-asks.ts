import type { EmbedSessionRecord } from '../embedding/ports.ts';
import { recordEvent } from '../events/record-event.ts';
import type { ChatRecord } from '../messages/ports.ts';
import type { Clock, Store, TransactionScope } from '../ports.ts';
import { contactOfChat } from '../contacts/cards.ts';

/**
 * The frame's agent asks the CRM to create a contact for a chat, or a deal: the gateway tells the CRM through the
 * webhook event `crm_entities.contact_add` / `crm_entities.deal_add` (the CRM creates it and sends it back with
 * POST /v2/contacts or /v2/deals). The payload names the chat and the agent; a deal names the chat's contact when
 * the CRM already has one.
 */
export async function askCrmToCreate(
  deps: { store: Store; clock: Clock },
  session: EmbedSessionRecord,
  chat: ChatRecord,
  kind: 'contact' | 'deal',
  name: string | undefined,
): Promise<{ event: string; event_id: string }> {
  const contact = kind === 'deal' ? await contactOfChat(deps.store, session.accountId, chat) : null;
  const event = `crm_entities.${kind}_add`;
  const payload = {
    user_id: session.user?.id ?? null,
    channel_id: chat.channelId,
    chat_ref: chat.id,
    chat_type: chat.chatType,
    chat_id: chat.chatId,
    username: chat.username,
    phone: chat.phone,
    name: name ?? chat.name,
    ...(kind === 'deal' ? { contact_id: contact?.id ?? null } : {}),
    timestamp: deps.clock.now().getTime(),
  };
  const recorded = await deps.store.transaction((tx) => recordEvent(tx, deps.clock, { accountId: session.accountId, name: event, orderingKey: `chat:${chat.id}`, payload }));
  return { event, event_id: recorded.id };
}

/**
 * A new customer was given to a user by the account's roles: where the CRM has loaded funnels with stages, the
 * gateway asks it to create what the customer lacks, on its own (`source: "auto"`): the contact first
 * (`crm_entities.contact_add`), or, once the chat has a contact, a deal for it (`crm_entities.deal_add`) unless it
 * has an open one. The CRM's answer to the first, where it gives the contact (a v3 address does), brings the second.
 */
export async function askCrmForNewCustomer(
  tx: TransactionScope,
  clock: Clock,
  chat: Pick<ChatRecord, 'id' | 'accountId' | 'channelId' | 'chatType' | 'chatId' | 'username' | 'phone' | 'name'>,
  userId: string,
): Promise<void> {
  const pipelines = await tx.pipelines.list(chat.accountId);
  if (!pipelines.some((p) => p.stages.length > 0)) return;
  const contact = await contactOfChat(tx, chat.accountId, chat);
  if (contact && (await tx.deals.openOfContact(chat.accountId, contact.id)).length > 0) return;
  const kind = contact ? 'deal' : 'contact';
  await recordEvent(tx, clock, {
    accountId: chat.accountId,
    name: `crm_entities.${kind}_add`,
    orderingKey: `chat:${chat.id}`,
    payload: {
      user_id: userId,
      channel_id: chat.channelId,
      chat_ref: chat.id,
      chat_type: chat.chatType,
      chat_id: chat.chatId,
      username: chat.username,
      phone: chat.phone,
      name: chat.name,
      ...(contact ? { contact_id: contact.id } : {}),
      source: 'auto',
      timestamp: clock.now().getTime(),
    },
  });
}
