import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { MessageDeps, MessagingDriver, OutboundMessage } from '../core/messages/ports.ts';
import { sendClaimed } from '../core/messages/send-message.ts';
import { seededRandom } from '../core/pacing/random.ts';
import type { DatabaseSchema } from '../storage/schema.ts';
import { createStore } from '../storage/store.ts';
import type { ManualClock } from './manual-clock.ts';

/** A send as the fake messenger took it: when, to whom, and how long "typing…" showed before it. */
export interface TakenSend {
  at: number;
  chatId: string;
  text: string;
  typingMs: number;
}

/** A messenger that takes every send, noting when (on the test's clock). */
export function recordingDriver(clock: ManualClock, taken: TakenSend[]): MessagingDriver {
  return {
    async send(m: OutboundMessage) {
      taken.push({ at: clock.now().getTime(), chatId: m.chatId ?? '', text: m.text ?? '', typingMs: m.typingMs ?? 0 });
      return { kind: 'sent', messengerMessageId: randomUUID(), chatId: m.chatId!, delivered: false };
    },
    async edit() {},
    async remove() {},
  };
}

/** A process's send path over the database: its store (claiming as `owner`) and message deps with seeded pacing. */
export function pacedDeps(db: Kysely<DatabaseSchema>, clock: ManualClock, driver: MessagingDriver, seed = 1, owner: string | null = null): MessageDeps {
  const store = createStore(db, () => ({ enqueue: async () => {} }), { singleConnection: true, sessionOwner: owner });
  return { store, clock, rules: undefined as never, driver, pacing: { random: seededRandom(seed) } };
}

/** Makes an account and a channel of `transport` created (linked) at `linkedAt`. */
export async function pacedChannel(db: Kysely<DatabaseSchema>, transport: 'whatsapp' | 'tgapi', linkedAt: Date): Promise<{ accountId: string; channelId: string }> {
  const accountId = randomUUID();
  const channelId = randomUUID();
  await db.insertInto('accounts').values({ id: accountId, name: 'Paced', created_at: linkedAt }).execute();
  await db
    .insertInto('channels')
    .values({ id: channelId, account_id: accountId, transport, status: 'active', reason: null, phone: null, username: null, messenger_id: null, name: null, auth_url: null, tier: null, paid: true, credentials: null, qr: null, pairing: null, created_at: linkedAt, updated_at: linkedAt })
    .execute();
  return { accountId, channelId };
}

/** Accepts one send to `chatId` now; `inbound`: the customer wrote in that chat before. */
export async function acceptSend(deps: MessageDeps, ids: { accountId: string; channelId: string }, chatId: string, text: string, inbound = false): Promise<string> {
  const now = deps.clock.now();
  const chatType = 'whatsapp' as const;
  const base = { accountId: ids.accountId, channelId: ids.channelId, reason: null, attachment: null, template: null, keyboard: null, quotedMessageId: null, crmUserId: null, resetUnanswered: false, createdAt: now, sentAt: null, deliveredAt: null, readAt: null, editedAt: null, deletedAt: null };
  const chat = { newId: randomUUID(), accountId: ids.accountId, channelId: ids.channelId, chatType, chatId, name: null, resetUnanswered: false, lastMessageAt: now };
  const messages = [];
  if (inbound) messages.push({ message: { ...base, id: randomUUID(), requestId: null, direction: 'inbound' as const, status: 'delivered' as const, text: 'hello', messengerMessageId: randomUUID() }, chatType, chatId });
  const id = randomUUID();
  messages.push({ message: { ...base, id, requestId: randomUUID(), direction: 'outbound' as const, status: 'accepted' as const, text, messengerMessageId: null }, chatType, chatId });
  await deps.store.sends.acceptToKnownChats([chat], messages);
  return id;
}

/** When something next becomes due on the channel: its gap's end, or a held or retried send's time (null: nothing waits). */
async function nextDue(db: Kysely<DatabaseSchema>, now: Date): Promise<number | null> {
  const { rows } = await sql<{ at: Date | null }>`
    select least(
      (select min(next_send_at) from channel_pacing where next_send_at > ${now}),
      (select min(send_after) from messages where status = 'accepted' and request_id is not null and send_after > ${now})) as at`.execute(db);
  const at = rows[0]?.at;
  return at ? new Date(at).getTime() : null;
}

/**
 * Runs the send path on the test's clock until `untilMs`: claims what is due and sends it (as the send loop does), and
 * when nothing is due moves the clock to the next moment something is (or to `untilMs`). `onStep` runs before each
 * claim (a test accepting sends over time, at the times `nextEvent` tells).
 */
export async function runUntil(
  deps: MessageDeps,
  db: Kysely<DatabaseSchema>,
  clock: ManualClock,
  untilMs: number,
  onStep?: () => Promise<void>,
  /** When the caller has something to do next (a send to accept), so that the clock stops there. */
  nextEvent?: () => number | null,
): Promise<void> {
  for (;;) {
    await onStep?.();
    const claims = await deps.store.sends.claim({ limit: 32, leaseSeconds: 30, now: clock.now() });
    if (claims.length > 0) {
      await sendClaimed(deps, claims);
      continue;
    }
    const next = await nextDue(db, clock.now());
    const to = Math.min(next ?? untilMs, nextEvent?.() ?? untilMs, untilMs);
    if (clock.now().getTime() >= untilMs) return;
    clock.set(Math.max(to, clock.now().getTime() + 1));
  }
}
