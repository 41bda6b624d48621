import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { upsertContactCards } from '../contacts/cards.ts';
import { askCrmForNewCustomer } from '../deals/crm-asks.ts';
import { upsertDeals } from '../deals/deals.ts';
import type { Clock, Store } from '../ports.ts';
import type { AttemptObserver } from './delivery.ts';

/**
 * A v3 address answers `createContact` / `createDeal` with the entity it created, in the shape of its contacts and
 * deals (camelCase). The gateway keeps it as if the CRM had sent it to /contacts or /deals; an answer that is not
 * one (empty, not JSON, missing fields) leaves nothing behind, and the delivery still counts as delivered.
 */
const ContactAnswer = Type.Object({
  id: Type.Union([Type.String({ minLength: 1 }), Type.Number()]),
  responsibleUserId: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
  name: Type.String({ minLength: 1 }),
  contactData: Type.Array(
    Type.Object({ chatType: Type.String(), chatId: Type.Optional(Type.String()), username: Type.Optional(Type.String()), phone: Type.Optional(Type.String()) }),
    { minItems: 1 },
  ),
  uri: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

const DealAnswer = Type.Object({
  id: Type.Union([Type.String({ minLength: 1 }), Type.Number()]),
  responsibleUserId: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
  name: Type.String({ minLength: 1 }),
  uri: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  link: Type.Optional(Type.String()),
  contacts: Type.Array(Type.Union([Type.String(), Type.Number()])),
  closed: Type.Optional(Type.Boolean()),
});

const idText = (v: string | number | null | undefined) => (v === null || v === undefined ? undefined : String(v));

function parsed(answer: string | undefined): unknown {
  if (!answer) return undefined;
  try {
    return JSON.parse(answer) as unknown;
  } catch {
    return undefined;
  }
}

async function keepContact(deps: { store: Store; clock: Clock }, accountId: string, body: unknown, asked: Record<string, unknown>): Promise<void> {
  if (!Value.Check(ContactAnswer, body)) return;
  const contact = {
    id: String(body.id),
    ...(idText(body.responsibleUserId) ? { responsible_user_id: idText(body.responsibleUserId) } : {}),
    name: body.name,
    contact_data: body.contactData.map((h) => ({
      chat_type: h.chatType,
      ...(h.chatId !== undefined ? { chat_id: h.chatId } : {}),
      ...(h.username !== undefined ? { username: h.username } : {}),
      ...(h.phone !== undefined ? { phone: h.phone } : {}),
    })),
    ...(body.uri ? { uri: body.uri } : {}),
  };
  await upsertContactCards(deps, accountId, [contact]);
  // Asked on its own for a new customer: the deal follows, now that the contact exists.
  const userId = typeof asked.user_id === 'string' ? asked.user_id : null;
  if (asked.source !== 'auto' || !userId || typeof asked.chat_ref !== 'string') return;
  await deps.store.transaction(async (tx) => {
    const chat = await tx.chats.get(accountId, asked.chat_ref as string);
    if (chat) await askCrmForNewCustomer(tx, deps.clock, chat, userId);
  });
}

async function keepDeal(deps: { store: Store; clock: Clock }, accountId: string, body: unknown): Promise<void> {
  if (!Value.Check(DealAnswer, body)) return;
  const uri = body.uri ?? body.link;
  await upsertDeals(deps, accountId, [
    {
      id: String(body.id),
      ...(idText(body.responsibleUserId) ? { responsible_user_id: idText(body.responsibleUserId) } : {}),
      name: body.name,
      ...(uri ? { uri } : {}),
      contacts: body.contacts.map(String),
      closed: body.closed ?? false,
    },
  ]);
}

/** Keeps what a v3 address answered to a create request, once the delivery is settled. */
export const crmAnswerObserver =
  (deps: { store: Store; clock: Clock }): AttemptObserver =>
  async ({ eventName, payloads, delivered, face, accountId, answer }) => {
    if (face !== 'v3' || !delivered || !accountId) return;
    const asked = (payloads[0] ?? {}) as Record<string, unknown>;
    try {
      if (eventName === 'crm_entities.contact_add') await keepContact(deps, accountId, parsed(answer), asked);
      else if (eventName === 'crm_entities.deal_add') await keepDeal(deps, accountId, parsed(answer));
    } catch (err) {
      // An entity the gateway refuses (a bad chat type, say) is the CRM's to fix; the delivery stands.
      if (!(err instanceof Error) || !('code' in err)) throw err;
    }
  };
