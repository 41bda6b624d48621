import { randomUUID } from 'node:crypto';
import type { MessagingDriver } from '../messages/ports.ts';
import type { Clock } from '../ports.ts';
import type { AuthRepository } from './ports.ts';

/** What one business API conversation costs, in the account's currency (the sandbox's price list has one entry). */
export const CONVERSATION_PRICE = 1;

/**
 * The business API's conversations are paid from the account's balance: a template (which opens a conversation) is
 * charged before it goes out, once per message even when its send is retried, and refused with
 * `wapi_not_enough_money` when the balance is short. A send that then fails gives the amount back. Accounts without a
 * currency are not billed.
 */
export function billedConversations(driver: MessagingDriver, deps: { auth: AuthRepository; clock: Clock }): MessagingDriver {
  return {
    ...driver,
    async send(m) {
      if (m.transport !== 'wapi' || m.template === null) return driver.send(m);
      const billing = await deps.auth.waba.billingOfChannel(m.channelId);
      if (!billing || billing.currency === null) return driver.send(m);
      const charge = { accountId: billing.accountId, channelId: m.channelId, chatId: m.chatId, createdAt: deps.clock.now() };
      if (!(await deps.auth.waba.charge({ id: m.requestId, kind: 'conversation', amount: CONVERSATION_PRICE, ...charge }))) {
        return { kind: 'failed', reason: 'wapi_not_enough_money' };
      }
      const outcome = await driver.send(m);
      if (outcome.kind === 'failed') await deps.auth.waba.topUp({ id: randomUUID(), kind: 'top_up', amount: CONVERSATION_PRICE, ...charge });
      return outcome;
    },
  };
}
