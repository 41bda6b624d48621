import { renderTemplate, variableCount } from '../../../../contract/template-text.ts';
import type { Template } from '../../../../contract/templates.ts';

/**
 * What the chat frame's template form works out from a template: which ones may be sent through the chat's
 * channel, how many values each takes, and the text the customer will read. The gateway checks again on send.
 */

/** The channel's templates that can be sent now (approved), by name. */
export function sendableTemplates(templates: readonly Template[], channelId: string): Template[] {
  return templates.filter((t) => t.channel_id === channelId && t.status === 'APPROVED').sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
}

/** How many values the template takes: `{{1}}`…`{{n}}` of its header and body. */
export const valueCount = (template: Template): number => variableCount(template.components);

/**
 * The message as the customer will read it, a value not given yet shown as its `{{n}}`, so the agent sees
 * where it goes.
 */
export function templatePreview(template: Template, values: readonly string[]): string {
  return renderTemplate(
    template.components,
    Array.from({ length: valueCount(template) }, (_, i) => (values[i]?.trim() ? values[i]! : `{{${i + 1}}}`)),
  );
}

/** The template's body, unfilled: what the list shows of each template. */
export const templateBody = (template: Template): string => template.components.find((c) => c.type === 'body')?.text ?? '';

/** The words of the template's buttons, as the customer will see them under the message. */
export const templateButtons = (template: Template): string[] => template.components.flatMap((c) => (c.type === 'buttons' ? (c.buttons ?? []) : [])).map((b) => b.text);

/** Every value the template takes is given (a blank one would reach the customer as a gap). */
export const valuesComplete = (template: Template, values: readonly string[]): boolean =>
  Array.from({ length: valueCount(template) }, (_, i) => values[i] ?? '').every((v) => v.trim() !== '');
