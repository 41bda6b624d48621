import { platformReports } from '../../core/messages/platform-reports.ts';
import type { MessageDeps, MessengerAppHook } from '../../core/messages/ports.ts';
import { metaAppHook, worse, type EntryOutcome } from '../meta/app-hook.ts';
import type { WhatsAppDeps } from './account.ts';
import { inCustomersChats } from './customers.ts';
import { numberOfChange, reportsOfChange, type MediaLink } from './webhook-events.ts';

type Outcome = EntryOutcome;

/** What reads the changes of a WhatsApp Business Account that concern the account as a whole (templates, tier, bans). */
export type AccountChangeReader = (wabaId: string, field: string, value: unknown) => Promise<Outcome>;

/**
 * Meta's webhooks for WhatsApp, at the app's one callback address for them (`/hooks/whatsapp`), where Meta posts
 * the changes of every account the app serves, batched: each `entry` is one WhatsApp Business Account's, each of its
 * `changes` one field's. A post whose signature (`X-Hub-Signature-256`, over the raw bytes, in constant time) is not
 * the app's is a 401 before anything is read. A `messages` change names its number (`metadata.phone_number_id`, the
 * channel's `messenger_id`) and goes to the active channel that has it, each customer's part in the chat their
 * WhatsApp id belongs in (customers.ts), recorded in one transaction before the post
 * is answered (Meta posts it again until a 200, for up to seven days, less and less often). A number no channel has
 * (not stored yet: a customer writing in the second a number is connected; deleted; or never connected here), or a
 * channel switched off, is taken and dropped, as Instagram's: one number's failure would fail every other number's
 * changes in the same post, and a callback that keeps failing puts the whole app at risk. Only what passes is asked
 * for again (503): a report on a send whose answer is not recorded yet.
 */
export function whatsappAppHook(deps: WhatsAppDeps & { messages: MessageDeps; mediaLink: (channelId: string) => MediaLink; accountChange?: AccountChangeReader }): MessengerAppHook {
  async function receiveMessages(value: unknown): Promise<Outcome> {
    const phoneNumberId = numberOfChange(value);
    if (phoneNumberId === null) return 'ignored';
    // One number belongs in one channel: should two hold it, the active one connected (or changed) last takes it.
    const channel = (await deps.channels.listByMessengerId('wapi', phoneNumberId)).find((c) => c.state.status === 'active');
    if (!channel) return 'ignored';
    const reports = reportsOfChange(value, deps.mediaLink(channel.id));
    if (reports.length === 0) return 'ignored';
    const outcome = await platformReports(deps.messages, channel.id, await inCustomersChats(deps, channel.id, reports));
    return outcome === 'recorded' ? 'accepted' : outcome === 'switched_off' ? 'ignored' : 'unavailable';
  }

  async function receiveEntry(entry: unknown): Promise<Outcome> {
    if (typeof entry !== 'object' || entry === null) return 'ignored';
    const { id: wabaId, changes } = entry as { id?: unknown; changes?: unknown };
    let outcome: Outcome = 'ignored';
    for (const change of Array.isArray(changes) ? changes : []) {
      if (typeof change !== 'object' || change === null) continue;
      const { field, value } = change as { field?: unknown; value?: unknown };
      if (field === 'messages') outcome = worse(outcome, await receiveMessages(value));
      else if (typeof field === 'string' && typeof wabaId === 'string' && deps.accountChange) outcome = worse(outcome, await deps.accountChange(wabaId, field, value));
    }
    return outcome;
  }

  return metaAppHook({ transport: 'wapi', object: 'whatsapp_business_account', verifyToken: deps.verifyToken, appSecret: deps.appSecret, receiveEntry });
}
