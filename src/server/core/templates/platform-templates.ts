import { randomUUID } from 'node:crypto';
import type { TemplateStatus } from '../../../contract/templates.ts';
import type { Clock, TransactionScope } from '../ports.ts';
import type { TemplateRecord } from './ports.ts';
import { templateStatusEvent, type TemplateDeps } from './templates.ts';

/**
 * The templates a platform moderates and lists for an account (live wapi: Meta's), read into each channel of the
 * account, and what the platform says of them one at a time (its moderation webhooks).
 *
 * A template the platform deleted is deleted here too, not marked. Messages sent with a template keep their own
 * copy of it (`messages.template`: its id, the values and the words the customer read; no foreign key), so the
 * history, the chat frame and the export show them as they were without the row. Gone, it is offered nowhere
 * (`GET /v2/templates`, the chat frame) and a send naming it is refused as for any unknown template
 * (`TEMPLATE_NOT_FOUND`); one accepted before and still waiting fails at the driver. A template made again later
 * under the same name and language is another template, with another id (the row no longer holds the name).
 * The CRM learns of the deletion as `waba_template.status_update` with `DISABLED`, the interface's status of a
 * template that can no longer be sent (it has no status for "deleted"), unless the template was disabled already.
 */

/** A template as the platform lists it for an account. */
export type PlatformTemplate = Pick<TemplateRecord, 'name' | 'language' | 'category' | 'status' | 'components'>;

/**
 * What one reading of the platform's templates of an account gave: `listed`, those the interface can carry;
 * `present`, the name and language of every template the platform still has (deleted ones aside), `listed` or not,
 * since a template the interface cannot carry (a new image header, a status it does not know…) is not a deleted one;
 * `complete`, the platform's whole list was read.
 */
export interface PlatformTemplates {
  listed: readonly PlatformTemplate[];
  present: readonly { name: string; language: string }[];
  complete: boolean;
}

const keyOf = (t: { name: string; language: string }) => `${t.name}\n${t.language}`;

/** The template goes, with `waba_template.status_update` (DISABLED) unless it could not be sent already. */
async function removeTemplate(tx: TransactionScope, clock: Clock, template: TemplateRecord, now: Date): Promise<void> {
  await tx.templates.remove(template.id);
  if (template.status !== 'DISABLED') await templateStatusEvent(tx, clock, template, 'DISABLED', now);
}

/**
 * The platform's templates of the channel's account, read into the channel's (`GET /v2/templates`): each by its name
 * and language, a new one with an id of its own that stays (a send names it), one known with its category, status
 * and parts as the platform now has them; a status that changed sends `waba_template.status_update`. When the
 * platform's whole list was read (`complete`), a template of the channel it no longer has at all (not in `present`)
 * was deleted there and is removed here; a partial list removes nothing. A template the platform still has but the
 * interface can no longer carry (in `present`, not in `listed`) stays as it was, its status included: nothing says
 * it cannot be sent (Meta may still take a send of it, or refuse it at the driver), and marking it DISABLED would
 * tell the CRM it is off while Meta has it live; it follows the platform again once it can be carried, and Meta's
 * moderation webhooks still change its status. A channel gone is left alone.
 */
export async function syncChannelTemplates(deps: TemplateDeps, channelId: string, { listed, present, complete }: PlatformTemplates): Promise<void> {
  await deps.store.transaction(async (tx) => {
    const channel = await tx.channels.getByIdForUpdate(channelId);
    if (!channel) return;
    const kept = new Map((await tx.templates.listForChannel(channelId)).map((t) => [keyOf(t), t]));
    const now = deps.clock.now();
    for (const one of listed) {
      const known = kept.get(keyOf(one));
      kept.delete(keyOf(one));
      if (!known) {
        await tx.templates.insert({ id: randomUUID(), accountId: channel.accountId, channelId, ...one, createdAt: now, updatedAt: now });
        continue;
      }
      if (known.status === one.status && known.category === one.category && JSON.stringify(known.components) === JSON.stringify(one.components)) continue;
      await tx.templates.update({ ...known, ...one, updatedAt: now });
      if (known.status !== one.status) await templateStatusEvent(tx, deps.clock, known, one.status, now);
    }
    if (!complete) return;
    const still = new Set(present.map(keyOf));
    for (const gone of kept.values()) if (!still.has(keyOf(gone))) await removeTemplate(tx, deps.clock, gone, now);
  });
}

/**
 * The platform's verdict on a template of the channel, known by its name and language (Meta's moderation webhook):
 * `unknown` when the channel has no such template (it was made on the platform since the channel read its account's),
 * else the status changes with `waba_template.status_update` (the same status again changes nothing). `deleted`: the
 * platform deleted it, and it is removed (see above).
 */
export async function templateStatusReported(deps: TemplateDeps, channelId: string, name: string, language: string, status: TemplateStatus | 'deleted'): Promise<'recorded' | 'unknown'> {
  return deps.store.transaction(async (tx) => {
    const template = (await tx.templates.listForChannel(channelId)).find((t) => t.name === name && t.language === language);
    if (!template) return 'unknown';
    const now = deps.clock.now();
    if (status === 'deleted') {
      await removeTemplate(tx, deps.clock, template, now);
      return 'recorded';
    }
    if (template.status === status) return 'recorded';
    await tx.templates.updateStatus(template.id, status, now);
    await templateStatusEvent(tx, deps.clock, template, status, now);
    return 'recorded';
  });
}
