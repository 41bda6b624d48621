import { accountBlocked, tierReported } from '../../core/channels/messenger-events.ts';
import { syncChannelTemplates, templateStatusReported } from '../../core/templates/platform-templates.ts';
import type { CallPacer } from '../call-pacer.ts';
import { numberOf, pacedNumber, type WhatsAppDeps } from './account.ts';
import { phoneDigits, tierOf } from './number-profile.ts';
import { accountTemplates, templateStatusOf } from './templates.ts';
import type { AccountChangeReader } from './webhook.ts';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/**
 * Reads the account's templates into the channel's (on connect, in the hook refresh, and when Meta moderates a
 * template the channel does not know yet). Throws where Meta cannot be asked.
 */
export async function refreshTemplates(deps: WhatsAppDeps, pacer: CallPacer, channelId: string, signal?: AbortSignal): Promise<void> {
  const channel = await deps.channels.getById(channelId);
  const number = numberOf(deps.cipher, channel?.credentials);
  if (!number) return;
  await syncChannelTemplates(deps, channelId, await accountTemplates(pacedNumber(deps, pacer, number, signal), number.waba_id));
}

/** The account's bans and restrictions that leave its numbers unable to write at all (documented `account_update` events). */
function switchesOff(value: Record<string, unknown>): boolean {
  if (value.event === 'DISABLED_UPDATE') {
    // A ban: `ban_info.waba_ban_state` DISABLE (SCHEDULE_FOR_DISABLE warns first, REINSTATE lifts it).
    return isObject(value.ban_info) && value.ban_info.waba_ban_state === 'DISABLE';
  }
  if (value.event === 'ACCOUNT_RESTRICTION') {
    // Inferred: a restriction of the messages customers start too leaves nothing to send; one of the business's
    // own first messages only (RESTRICTED_BIZ_INITIATED_MESSAGING) still lets it answer, and switches nothing off.
    const kinds = Array.isArray(value.restriction_info) ? value.restriction_info.map((r) => (isObject(r) ? r.restriction_type : null)) : [];
    return kinds.includes('RESTRICTED_CUSTOMER_INITIATED_MESSAGING');
  }
  return false;
}

/**
 * What Meta posts of a WhatsApp Business Account as a whole, for every channel of the account:
 * - `message_template_status_update` (documented: `event`, the new status; `message_template_name`,
 *   `message_template_language`): the channel's template of that name and language takes it
 *   (`waba_template.status_update`), or is removed where Meta deleted it (DELETED, PENDING_DELETION); a template the
 *   channel does not know yet has the account's templates read again (one deleted needs nothing read);
 * - `phone_number_quality_update` (documented: `display_phone_number`, `event`, `current_limit`): the number's channel
 *   takes its new tier (`channel.waba_tier_update`);
 * - `account_update` (documented: `event` DISABLED_UPDATE with `ban_info`, ACCOUNT_RESTRICTION with
 *   `restriction_info`): a banned account's channels are switched off (`disabled`/`blocked`) until a reinit.
 * Anything else is taken and dropped. Meta failing while templates are read again is asked for again (503).
 */
export function whatsappAccountChanges(deps: WhatsAppDeps, pacer: CallPacer): AccountChangeReader {
  return async (wabaId, field, value) => {
    if (!isObject(value)) return 'ignored';
    const channels = (await deps.channels.listByMessengerAccountId('wapi', wabaId)).filter((c) => c.state.status !== 'disabled' || field === 'message_template_status_update');
    if (channels.length === 0) return 'ignored';
    if (field === 'message_template_status_update') {
      const status = templateStatusOf(value.event);
      const { message_template_name: name, message_template_language: language } = value;
      if (!status || typeof name !== 'string' || typeof language !== 'string') return 'ignored';
      for (const channel of channels) {
        if ((await templateStatusReported(deps, channel.id, name, language, status)) === 'recorded' || status === 'deleted') continue;
        try {
          await refreshTemplates(deps, pacer, channel.id);
        } catch {
          return 'unavailable';
        }
      }
      return 'accepted';
    }
    if (field === 'phone_number_quality_update') {
      const tier = tierOf(value.current_limit);
      const phone = phoneDigits(value.display_phone_number);
      const channel = channels.find((c) => c.phone !== null && c.phone === phone);
      if (!tier || !channel) return 'ignored';
      await tierReported(deps, channel.id, tier);
      return 'accepted';
    }
    if (field === 'account_update' && switchesOff(value)) {
      for (const channel of channels) await accountBlocked(deps, channel.id);
      return 'accepted';
    }
    return 'ignored';
  };
}
