import type { TemplateComponent } from './templates.ts';

/**
 * `{{n}}` variables of template texts: which a template has, and the text once they are filled. One set of rules
 * for the gateway (checking a template, rendering what a send's customer reads) and the chat frame (its template
 * form and preview), so that what the agent sees before sending is what the customer gets.
 */

const VARIABLE = /\{\{\s*(\d{1,3})\s*\}\}/g;

/** The variable numbers used in one text, in order of first appearance. */
export function variablesOf(text: string): number[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => Number(m[1])))];
}

/** How many values a template takes: its header and body use `{{1}}`…`{{n}}` (checked on creation). */
export function variableCount(components: readonly TemplateComponent[]): number {
  const used = components.filter((c) => c.type === 'header' || c.type === 'body').flatMap((c) => variablesOf(c.text ?? ''));
  return used.length === 0 ? 0 : Math.max(...used);
}

/** Whether the numbers are exactly 1…n, each used at least once (the platform refuses gaps). */
export function variablesAreContiguous(numbers: readonly number[]): boolean {
  const distinct = new Set(numbers);
  return [...distinct].every((n) => n >= 1 && n <= distinct.size);
}

export function fill(text: string, values: readonly string[]): string {
  return text.replace(VARIABLE, (whole, n: string) => values[Number(n) - 1] ?? whole);
}

/** The message a customer reads: header, body and footer with the variables filled, a blank line apart. */
export function renderTemplate(components: readonly TemplateComponent[], values: readonly string[]): string {
  const part = (type: 'header' | 'body' | 'footer') => components.find((c) => c.type === type)?.text;
  return (['header', 'body', 'footer'] as const)
    .map(part)
    .filter((text): text is string => text !== undefined)
    .map((text) => fill(text, values))
    .join('\n\n');
}
