import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../../contract/errors.ts';
import { channelNotFound } from '../channels/channel-steps.ts';
import type { ChannelRecord } from '../channels/ports.ts';
import { validationError } from '../errors.ts';
import type { SubmittedTemplate, TemplatePlatform, TemplateRecord } from './ports.ts';
import { templateProblems, type TemplateDeps } from './templates.ts';

/**
 * `/v2/templates/waba` where a platform moderates templates itself (live wapi: Meta). The template is submitted once
 * per platform account (the channels of one WhatsApp Business Account share it) and kept on each channel with the
 * status the platform gave; the platform's verdicts come later through its webhooks, as for templates made on the
 * platform. Everything the gateway can check is checked before the platform is asked; a refusal of the platform's is
 * the API's error (its words in it). Channels of several accounts are submitted in turn: where one account refuses,
 * those before it keep the template (the platform has it), and the error is answered.
 */

/** The channels by the platform's account their templates belong to, in order. */
function byAccount(platform: TemplatePlatform, channels: ChannelRecord[]): ChannelRecord[][] {
  const groups = new Map<string, ChannelRecord[]>();
  for (const channel of channels) {
    const account = platform.accountOf(channel);
    groups.set(account, [...(groups.get(account) ?? []), channel]);
  }
  return [...groups.values()];
}

/** The template's channels, the account's own (another's, or one gone, is not found). */
async function channelsOf(deps: TemplateDeps, accountId: string, ids: string[]): Promise<ChannelRecord[]> {
  const found: ChannelRecord[] = [];
  for (const id of ids) {
    const channel = await deps.store.channels.get(accountId, id);
    if (!channel) throw channelNotFound(id);
    found.push(channel);
  }
  return found;
}

/** Submits a new template on the channels (wapi ones, checked by the caller): the id of its first copy. */
export async function submitToPlatform(deps: TemplateDeps, platform: TemplatePlatform, accountId: string, channelIds: string[], template: SubmittedTemplate): Promise<string> {
  const channels = await channelsOf(deps, accountId, channelIds);
  const problems: FieldError[] = templateProblems(template.components).map((p) => ({ ...p, field: `template.${p.field}` }));
  for (const [i, channel] of channels.entries()) {
    if (await deps.store.templates.exists(channel.id, template.name, template.language)) {
      problems.push({ field: `template.channels.${i}`, message: 'the channel already has a template of this name and language' });
    }
  }
  if (problems.length > 0) throw validationError(problems);
  let first: string | null = null;
  for (const group of byAccount(platform, channels)) {
    const { status } = await platform.submit(group[0]!, template);
    const now = deps.clock.now();
    await deps.store.transaction(async (tx) => {
      for (const channel of group) {
        // Meta's verdict may have come first, its webhook reading the account's templates into the channel's.
        const known = (await tx.templates.listForChannel(channel.id)).find((t) => t.name === template.name && t.language === template.language);
        const id = known?.id ?? randomUUID();
        if (!known) {
          const record: TemplateRecord = { id, accountId, channelId: channel.id, name: template.name, language: template.language, category: template.category, status, components: template.components, createdAt: now, updatedAt: now };
          await tx.templates.insert(record);
        }
        first ??= id;
      }
    });
  }
  return first!;
}

/** The template's copies (one per channel), a platform call per account: `act` for the first copy of each. */
export async function forEachAccount(deps: TemplateDeps, platform: TemplatePlatform, accountId: string, copies: TemplateRecord[], act: (channel: ChannelRecord, copy: TemplateRecord) => Promise<void>): Promise<void> {
  const channels = await channelsOf(deps, accountId, [...new Set(copies.map((t) => t.channelId))]);
  for (const group of byAccount(platform, channels)) {
    const channel = group[0]!;
    await act(channel, copies.find((t) => t.channelId === channel.id)!);
  }
}
