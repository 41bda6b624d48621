import { randomUUID } from 'node:crypto';
import type { FieldError } from '../../../contract/errors.ts';
import { templateLimits, type CreateTemplateBody, type Template, type TemplateStatus } from '../../../contract/templates.ts';
import { channelNotFound } from '../channels/channel-steps.ts';
import { AppError, validationError } from '../errors.ts';
import { recordEvent } from '../events/record-event.ts';
import type { Clock, Store, TransactionScope } from '../ports.ts';
import { variablesAreContiguous, variablesOf } from '../../../contract/template-text.ts';
import type { TemplatePlatform, TemplateRecord } from './ports.ts';

/** `waba_template.status_update` of a template whose status changed. */
export function templateStatusEvent(tx: TransactionScope, clock: Clock, template: TemplateRecord, status: TemplateStatus, now: Date) {
  return recordEvent(tx, clock, {
    accountId: template.accountId,
    name: 'waba_template.status_update',
    orderingKey: `template:${template.id}`,
    payload: { template_id: template.id, status, timestamp: Math.floor(now.getTime() / 1000) },
  });
}

export interface TemplateDeps {
  store: Store;
  clock: Clock;
  /** A platform that moderates wapi channels' templates itself (live: Meta), in place of the sandbox. */
  platform?: TemplatePlatform | null;
}

export const templateNotFound = (templateId: string): AppError =>
  new AppError('TEMPLATE_NOT_FOUND', 'Template not found', { template_id: templateId });

export const toTemplate = (t: TemplateRecord): Template => ({
  id: t.id,
  channel_id: t.channelId,
  name: t.name,
  language: t.language,
  category: t.category,
  status: t.status,
  components: t.components,
  updated_at: t.updatedAt.toISOString(),
});

/** The account's templates, optionally of one of its channels (another account's channel is not found). */
export async function listTemplates({ store }: TemplateDeps, accountId: string, channelId?: string): Promise<Template[]> {
  if (channelId !== undefined && !(await store.channels.get(accountId, channelId))) throw channelNotFound(channelId);
  return (await store.templates.list(accountId, channelId)).map(toTemplate);
}

/** The platform's rules on a submitted template's parts; every problem is named. */
export function templateProblems(components: CreateTemplateBody['components']): FieldError[] {
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  const limit = { header: templateLimits.headerChars, body: templateLimits.bodyChars, footer: templateLimits.footerChars };
  components.forEach((c, i) => {
    const path = `components.${i}`;
    if (seen.has(c.type)) problems.push({ field: `${path}.type`, message: `a template has at most one ${c.type}` });
    seen.add(c.type);
    if (c.type === 'buttons') {
      if (!c.buttons) problems.push({ field: `${path}.buttons`, message: 'is required' });
      if (c.text !== undefined) problems.push({ field: `${path}.text`, message: 'buttons take no text' });
      c.buttons?.forEach((b, j) => {
        const needs = b.type === 'url' ? 'url' : b.type === 'phone_number' ? 'phone_number' : null;
        if (needs && b[needs] === undefined) problems.push({ field: `${path}.buttons.${j}.${needs}`, message: `is required for ${b.type} buttons` });
        for (const extra of ['url', 'phone_number'] as const) {
          if (extra !== needs && b[extra] !== undefined) problems.push({ field: `${path}.buttons.${j}.${extra}`, message: `only ${extra} buttons have it` });
        }
      });
      return;
    }
    if (c.buttons) problems.push({ field: `${path}.buttons`, message: `a ${c.type} takes no buttons` });
    if (c.text === undefined) problems.push({ field: `${path}.text`, message: 'is required' });
    else if ([...c.text].length > limit[c.type]) problems.push({ field: `${path}.text`, message: `must be at most ${limit[c.type]} characters` });
    else if (c.type === 'footer' && variablesOf(c.text).length > 0) problems.push({ field: `${path}.text`, message: 'a footer takes no variables' });
  });
  if (!seen.has('body')) problems.push({ field: 'components', message: 'a template needs a body' });
  const numbers = components.filter((c) => c.type !== 'footer').flatMap((c) => variablesOf(c.text ?? ''));
  if (!variablesAreContiguous(numbers)) problems.push({ field: 'components', message: 'variables must be numbered {{1}}, {{2}}… without gaps' });
  return problems;
}

/** Sandbox: a template is submitted on a wapi channel and waits for moderation (PENDING). */
export async function createSandboxTemplate(deps: TemplateDeps, accountId: string, channelId: string, body: CreateTemplateBody): Promise<Template> {
  return deps.store.transaction(async (tx) => {
    const channel = await tx.channels.get(accountId, channelId);
    if (!channel) throw channelNotFound(channelId);
    if (channel.transport !== 'wapi') throw validationError([{ field: 'channel_id', message: 'only business-API (wapi) channels have templates' }]);
    const problems = templateProblems(body.components);
    if (await tx.templates.exists(channelId, body.name, body.language)) {
      problems.push({ field: 'name', message: 'the channel already has a template of this name and language' });
    }
    if (problems.length > 0) throw validationError(problems);
    const now = deps.clock.now();
    const template: TemplateRecord = {
      id: randomUUID(),
      accountId,
      channelId,
      name: body.name,
      language: body.language,
      category: body.category,
      status: 'PENDING',
      components: body.components,
      createdAt: now,
      updatedAt: now,
    };
    await tx.templates.insert(template);
    return toTemplate(template);
  });
}

/**
 * Sandbox: the platform moderates a template. The platform decides, so any status may follow any other;
 * a change sends `waba_template.status_update`, and the same status again changes nothing.
 */
export async function moderateTemplate(deps: TemplateDeps, accountId: string, templateId: string, status: TemplateStatus): Promise<Template> {
  return deps.store.transaction(async (tx) => {
    const template = await tx.templates.getForUpdate(accountId, templateId);
    if (!template) throw templateNotFound(templateId);
    if (template.status === status) return toTemplate(template);
    const now = deps.clock.now();
    await tx.templates.updateStatus(template.id, status, now);
    await templateStatusEvent(tx, deps.clock, template, status, now);
    return toTemplate({ ...template, status, updatedAt: now });
  });
}
