import type { FieldError } from '../../../contract/errors.ts';
import type { CreateTemplateBody, TemplateComponent, WabaTemplateAnswer, WabaTemplateBody, WabaTemplateChange } from '../../../contract/templates.ts';
import { channelNotFound } from '../channels/channel-steps.ts';
import { validationError } from '../errors.ts';
import type { SubmittedTemplate, TemplateRecord } from './ports.ts';
import { forEachAccount, submitToPlatform } from './waba-platform.ts';
import { createSandboxTemplate, templateNotFound, templateStatusEvent, toTemplate, type TemplateDeps } from './templates.ts';

type WabaComponent = WabaTemplateBody['template']['components'][number];

const BUTTON_TYPES: Record<string, TemplateComponent['buttons'] extends (infer B)[] | undefined ? B extends { type: infer T } ? T : never : never> = {
  QUICK_REPLY: 'quick_reply',
  URL: 'url',
  PHONE_NUMBER: 'phone_number',
};
const PART_TYPES = new Set(['header', 'body', 'footer', 'buttons']);

/** Meta's upper-case parts as the gateway keeps them; what cannot be kept (a media header) is named. */
function ourComponents(components: WabaComponent[], problems: FieldError[]): TemplateComponent[] {
  return components.map((c, i) => {
    const type = c.type.toLowerCase();
    if (!PART_TYPES.has(type)) problems.push({ field: `template.components.${i}.type`, message: 'must be HEADER, BODY, FOOTER or BUTTONS' });
    if (type === 'header' && c.format !== undefined && c.format.toUpperCase() !== 'TEXT') {
      problems.push({ field: `template.components.${i}.format`, message: 'only TEXT headers are kept' });
    }
    const buttons = c.buttons?.map((b, j) => {
      const kind = BUTTON_TYPES[b.type.toUpperCase()];
      if (!kind) problems.push({ field: `template.components.${i}.buttons.${j}.type`, message: 'must be QUICK_REPLY, URL or PHONE_NUMBER' });
      return { type: kind ?? 'quick_reply', text: b.text, ...(b.url ? { url: b.url } : {}), ...(b.phone_number ? { phone_number: b.phone_number } : {}) };
    });
    return { type: type as TemplateComponent['type'], ...(c.text !== undefined ? { text: c.text } : {}), ...(buttons ? { buttons } : {}) };
  });
}

/** The caller's sample values of each part (Meta's `example`), handed on to a platform that moderates. */
const examplesOf = (components: WabaComponent[] | undefined): SubmittedTemplate['examples'] =>
  Object.fromEntries((components ?? []).filter((c) => c.example !== undefined).map((c) => [c.type.toLowerCase(), c.example]));

/** The service's picture: upper-case parts again. */
const wabaComponents = (components: TemplateComponent[]) =>
  components.map((c) => ({
    type: c.type.toUpperCase(),
    ...(c.type === 'header' ? { format: 'TEXT' } : {}),
    ...(c.text !== undefined ? { text: c.text } : {}),
    ...(c.buttons ? { buttons: c.buttons.map((b) => ({ ...b, type: b.type.toUpperCase() })) } : {}),
  }));

const nameOf = (title: string) => title.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 512) || 'template';

function answer(first: TemplateRecord, all: TemplateRecord[]): WabaTemplateAnswer {
  // The template as a whole is as far as its least advanced copy: approved only once every channel approved it.
  const status = all.every((t) => t.status === 'APPROVED') ? 'APPROVED' : (all.find((t) => t.status !== 'APPROVED')?.status ?? first.status);
  return {
    id: first.id,
    title: first.name,
    category: first.category,
    language: first.language,
    status,
    channels: all.map((t) => t.channelId),
    components: wabaComponents(first.components),
    templates: all.map(toTemplate),
  };
}

/** The copies of one template (same name and language), the earliest first: it stands for them all. */
const inOrder = (all: TemplateRecord[]) => [...all].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** A template and its copies on the account's other channels (same name and language). */
async function family(deps: TemplateDeps, accountId: string, id: string): Promise<{ first: TemplateRecord; all: TemplateRecord[] }> {
  const found = await deps.store.templates.get(accountId, id);
  if (!found) throw templateNotFound(id);
  const all = inOrder((await deps.store.templates.list(accountId)).filter((t) => t.name === found.name && t.language === found.language));
  return { first: all[0] ?? found, all: all.length > 0 ? all : [found] };
}

/**
 * `POST /v2/templates/waba`: the template is submitted on each of its wapi channels and waits for moderation
 * (PENDING; the sandbox moderates on command; live, Meta does: waba-platform.ts). Every channel is checked before any
 * is written.
 */
export async function createWabaTemplate(deps: TemplateDeps, accountId: string, body: WabaTemplateBody): Promise<WabaTemplateAnswer> {
  const problems: FieldError[] = [];
  const components = ourComponents(body.template.components, problems);
  const channels = [...new Set(body.template.channels)];
  for (const [i, id] of channels.entries()) {
    const channel = await deps.store.channels.get(accountId, id);
    if (!channel) throw channelNotFound(id);
    if (channel.transport !== 'wapi') problems.push({ field: `template.channels.${i}`, message: 'only business-API (wapi) channels have templates' });
  }
  if (problems.length > 0) throw validationError(problems);
  const submitted: CreateTemplateBody = { name: nameOf(body.template.title), language: body.template.language, category: body.template.category, components };
  if (deps.platform) {
    return getWabaTemplate(deps, accountId, await submitToPlatform(deps, deps.platform, accountId, channels, { ...submitted, examples: examplesOf(body.template.components) }));
  }
  const created = [];
  for (const channelId of channels) created.push(await createSandboxTemplate(deps, accountId, channelId, submitted));
  return getWabaTemplate(deps, accountId, created[0]!.id);
}

export async function getWabaTemplate(deps: TemplateDeps, accountId: string, id: string): Promise<WabaTemplateAnswer> {
  const { first, all } = await family(deps, accountId, id);
  return answer(first, all);
}

export async function listWabaTemplates(deps: TemplateDeps, accountId: string): Promise<WabaTemplateAnswer[]> {
  const groups = new Map<string, TemplateRecord[]>();
  for (const t of await deps.store.templates.list(accountId)) groups.set(`${t.name} ${t.language}`, [...(groups.get(`${t.name} ${t.language}`) ?? []), t]);
  return [...groups.values()].map((group) => {
    const all = inOrder(group);
    return answer(all[0]!, all);
  });
}

/** An edited template goes back to moderation (PENDING) on every channel, as Meta does (live: submitted to Meta again first). */
export async function editWabaTemplate(deps: TemplateDeps, accountId: string, id: string, body: WabaTemplateChange): Promise<WabaTemplateAnswer> {
  const problems: FieldError[] = [];
  const components = body.template.components ? ourComponents(body.template.components, problems) : undefined;
  if (problems.length > 0) throw validationError(problems);
  const { all } = await family(deps, accountId, id);
  const platform = deps.platform;
  if (platform) {
    await forEachAccount(deps, platform, accountId, all, (channel, t) =>
      platform.edit(channel, { name: t.name, language: t.language, category: body.template.category ?? t.category, components: components ?? t.components, examples: examplesOf(body.template.components) }),
    );
  }
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    for (const t of all) {
      const changed: TemplateRecord = { ...t, category: body.template.category ?? t.category, components: components ?? t.components, status: 'PENDING', updatedAt: now };
      await tx.templates.update(changed);
      if (t.status !== 'PENDING') await templateStatusEvent(tx, deps.clock, changed, 'PENDING', now);
    }
  });
  return getWabaTemplate(deps, accountId, id);
}

export async function deleteWabaTemplate(deps: TemplateDeps, accountId: string, id: string): Promise<void> {
  const { all } = await family(deps, accountId, id);
  const platform = deps.platform;
  if (platform) await forEachAccount(deps, platform, accountId, all, (channel, t) => platform.remove(channel, t));
  await deps.store.transaction(async (tx) => {
    for (const t of all) await tx.templates.remove(t.id);
  });
}
