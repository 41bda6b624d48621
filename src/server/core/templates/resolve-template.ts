import type { FieldError } from '../../../contract/errors.ts';
import type { TemplateRef } from '../../../contract/messages.ts';
import { AppError, validationError } from '../errors.ts';
import type { Repositories } from '../ports.ts';
import { renderTemplate, variableCount } from '../../../contract/template-text.ts';
import type { TemplateRecord } from './ports.ts';
import { templateNotFound } from './templates.ts';

/** What a send's `template.buttons` may bind: payloads to the template's quick-reply buttons, in order. */
function buttonProblems(template: TemplateRecord, given: NonNullable<TemplateRef['buttons']>): FieldError[] {
  const quickReplies = template.components.flatMap((c) => (c.type === 'buttons' ? (c.buttons ?? []) : [])).filter((b) => b.type === 'quick_reply');
  if (given.length > quickReplies.length) {
    return [{ field: 'template.buttons', message: `the template has ${quickReplies.length} quick-reply buttons; ${given.length} payloads were given` }];
  }
  const problems: FieldError[] = [];
  given.forEach((button, i) => {
    const own = quickReplies[i]!;
    if (button.text !== undefined && button.text !== own.text) {
      problems.push({ field: `template.buttons.${i}.text`, message: `must be the template button's text "${own.text}"` });
    }
    if (button.type !== undefined && button.type.toLowerCase() !== 'quick_reply') {
      problems.push({ field: `template.buttons.${i}.type`, message: 'must be quick_reply: only quick-reply buttons carry payloads' });
    }
  });
  return problems;
}

/**
 * The template a send names, checked for the channel it goes through, and the text the customer reads.
 * Unknown, another account's or another channel's template: TEMPLATE_NOT_FOUND; not approved:
 * TEMPLATE_NOT_APPROVED; values or button payloads that do not fit the template: VALIDATION_ERROR.
 */
export async function resolveTemplateForSend(
  store: Pick<Repositories, 'templates'>,
  accountId: string,
  channelId: string,
  ref: TemplateRef,
): Promise<{ template: TemplateRecord; text: string }> {
  const template = await store.templates.get(accountId, ref.id);
  if (!template || template.channelId !== channelId) throw templateNotFound(ref.id);
  if (template.status !== 'APPROVED') {
    throw new AppError('TEMPLATE_NOT_APPROVED', 'Template is not approved for sending', { template_id: template.id, status: template.status });
  }
  const values = ref.values ?? [];
  const expected = variableCount(template.components);
  const problems: FieldError[] = [];
  if (values.length !== expected) problems.push({ field: 'template.values', message: `the template takes ${expected} values; ${values.length} were given` });
  problems.push(...buttonProblems(template, ref.buttons ?? []));
  if (problems.length > 0) throw validationError(problems);
  return { template, text: renderTemplate(template.components, values) };
}
