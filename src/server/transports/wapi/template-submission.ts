import { AppError } from '../../core/errors.ts';
import type { SubmittedTemplate, TemplatePlatform } from '../../core/templates/ports.ts';
import type { CallPacer } from '../call-pacer.ts';
import type { GraphApi } from '../meta/graph-api.ts';
import { numberOf, pacedNumber, type NumberCredentials, type WhatsAppDeps } from './account.ts';
import { templateRefusal } from './template-refusals.ts';
import { renumbered, templateStatusOf, variableCount } from './templates.ts';

/**
 * The business-API templates of live wapi channels, moderated by Meta (documented, WhatsApp Business Management API
 * "Message templates"): created with `POST /{waba_id}/message_templates` `{name, language, category, components}`
 * (answered `{id, status, category}`), edited with `POST /{template_id}` `{category?, components}`, deleted with
 * `DELETE /{waba_id}/message_templates?name=…&hsm_id=…` (the id keeps the template's other languages). A template is
 * the WhatsApp Business Account's: the channels of one account share it. Its verdict comes later in the account's
 * `message_template_status_update` webhook (account-changes.ts). The interface numbers variables across header and
 * body; Meta per part, so the body's are numbered again from 1 (the reverse of templates.ts).
 */

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** The template's parts as Meta takes them, each with the caller's sample values (`example`) where given. */
export function metaComponents(template: SubmittedTemplate): Record<string, unknown>[] {
  const header = template.components.find((c) => c.type === 'header');
  const headerVariables = header?.text ? variableCount(header.text) : 0;
  return template.components.map((c) => {
    const example = template.examples[c.type];
    const withExample = example === undefined ? {} : { example };
    switch (c.type) {
      case 'header':
        return { type: 'HEADER', format: 'TEXT', text: c.text, ...withExample };
      case 'body':
        return { type: 'BODY', text: renumbered(c.text ?? '', -headerVariables), ...withExample };
      case 'footer':
        return { type: 'FOOTER', text: c.text };
      case 'buttons':
        return {
          type: 'BUTTONS',
          buttons: (c.buttons ?? []).map((b) => ({ type: b.type.toUpperCase(), text: b.text, ...(b.url ? { url: b.url } : {}), ...(b.phone_number ? { phone_number: b.phone_number } : {}) })),
        };
    }
  });
}

/** Meta's id of the account's template of that name in that language; null where the account has none. */
async function templateIdOf(api: GraphApi, wabaId: string, name: string, language: string): Promise<string | null> {
  const answer = await api.call<{ data?: unknown }>('GET', `/${wabaId}/message_templates`, { query: { name, fields: 'id,name,language,status', limit: '100' } });
  const found = (Array.isArray(answer.data) ? answer.data : []).find((t) => isObject(t) && t.name === name && t.language === language && typeof t.id === 'string');
  return found ? String((found as { id: string }).id) : null;
}

export function whatsappTemplatePlatform(deps: WhatsAppDeps, pacer: CallPacer): TemplatePlatform {
  const numberOfChannel = (channel: { credentials: string | null }): NumberCredentials => {
    const number = numberOf(deps.cipher, channel.credentials);
    if (!number) throw new AppError('CHANNEL_WRONG_STATUS', 'The channel has no WhatsApp Business Account connected yet: connect it first');
    return number;
  };
  /** One call of Meta's for the channel's account, its refusal as the API's error. */
  async function asking<T>(channel: { id: string; credentials: string | null }, call: (api: GraphApi, wabaId: string) => Promise<T>): Promise<T> {
    const number = numberOfChannel(channel);
    try {
      return await call(pacedNumber(deps, pacer, number), number.waba_id);
    } catch (err) {
      throw await templateRefusal(err, async () => void (await deps.revoked?.(channel.id, channel.credentials)));
    }
  }
  return {
    accountOf: (channel) => numberOfChannel(channel).waba_id,
    submit: (channel, template) =>
      asking(channel, async (api, wabaId) => {
        const answer = await api.call<{ status?: unknown }>('POST', `/${wabaId}/message_templates`, {
          body: { name: template.name, language: template.language, category: template.category, components: metaComponents(template) },
        });
        const status = templateStatusOf(answer.status);
        return { status: status === null || status === 'deleted' ? 'PENDING' : status };
      }),
    edit: (channel, template) =>
      asking(channel, async (api, wabaId) => {
        const id = await templateIdOf(api, wabaId, template.name, template.language);
        if (id === null) throw new AppError('TEMPLATE_NOT_FOUND', 'Meta no longer has this template: it was deleted on the WhatsApp Business Account');
        await api.call('POST', `/${id}`, { body: { category: template.category, components: metaComponents(template) } });
      }),
    remove: (channel, template) =>
      asking(channel, async (api, wabaId) => {
        const id = await templateIdOf(api, wabaId, template.name, template.language);
        if (id !== null) await api.call('DELETE', `/${wabaId}/message_templates`, { query: { name: template.name, hsm_id: id } });
      }),
  };
}
