import type { TemplateCategory, TemplateComponent, TemplateStatus } from '../../../contract/templates.ts';
import { templateCategories } from '../../../contract/templates.ts';
import type { PlatformTemplate, PlatformTemplates } from '../../core/templates/platform-templates.ts';
import type { GraphApi } from '../meta/graph-api.ts';

/**
 * An account's message templates (`GET /{waba_id}/message_templates`, documented: `name`, `language`, `status`,
 * `category`, `parameter_format`, `components` of type HEADER (with a `format`), BODY, FOOTER and BUTTONS) as the
 * interface lists them. The interface's templates number their variables across header and body (`{{1}}`… in
 * order, as a send's `values`); Meta numbers them per component, so the body's are renumbered after the header's.
 * What the interface cannot carry is left out, whole templates at a time, since a send could not fill them: named
 * parameters, a header of a picture, video, document or place (its parameter is a file, not a value), and buttons
 * other than quick replies and fixed links and phone numbers (a link with a variable, a copy code, a flow…).
 */

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const VARIABLE = /\{\{\s*(\d{1,3})\s*\}\}/g;

/**
 * Meta's statuses as the interface's five (under appeal is still being checked; archived or over its limit is off),
 * or `deleted`: documented, DELETED (the template has been deleted) and PENDING_DELETION (deleted in WhatsApp
 * Manager; inferred: Meta still lists it so for a while, and no DELETED follows for every template).
 */
export function templateStatusOf(raw: unknown): TemplateStatus | 'deleted' | null {
  switch (typeof raw === 'string' ? raw.toUpperCase() : null) {
    case 'PENDING_DELETION':
    case 'DELETED':
      return 'deleted';
    case 'APPROVED':
    case 'REINSTATED':
      return 'APPROVED';
    case 'PENDING':
    case 'IN_APPEAL':
      return 'PENDING';
    case 'REJECTED':
      return 'REJECTED';
    case 'PAUSED':
      return 'PAUSED';
    case 'DISABLED':
    case 'ARCHIVED':
    case 'LIMIT_EXCEEDED':
      return 'DISABLED';
    default:
      return null;
  }
}

export const renumbered = (text: string, by: number) => (by === 0 ? text : text.replace(VARIABLE, (_whole, n: string) => `{{${Number(n) + by}}}`));
export const variableCount = (text: string) => new Set([...text.matchAll(VARIABLE)].map((m) => m[1])).size;

/** One of Meta's templates as the interface's, or null where a send could not fill it (or Meta deleted it). */
export function templateOf(found: unknown): PlatformTemplate | null {
  if (!isObject(found) || typeof found.name !== 'string' || typeof found.language !== 'string') return null;
  if (found.parameter_format !== undefined && found.parameter_format !== 'POSITIONAL') return null;
  const status = templateStatusOf(found.status);
  if (status === 'deleted') return null;
  const category = typeof found.category === 'string' ? found.category.toUpperCase() : '';
  if (!status || !(templateCategories as readonly string[]).includes(category)) return null;
  const components: TemplateComponent[] = [];
  let headerVariables = 0;
  for (const part of Array.isArray(found.components) ? found.components : []) {
    if (!isObject(part) || typeof part.type !== 'string') return null;
    const type = part.type.toUpperCase();
    const text = typeof part.text === 'string' ? part.text : null;
    if (type === 'HEADER') {
      if ((part.format !== undefined && part.format !== 'TEXT') || text === null) return null;
      headerVariables = variableCount(text);
      components.push({ type: 'header', text });
    } else if (type === 'BODY' && text !== null) components.push({ type: 'body', text: renumbered(text, headerVariables) });
    else if (type === 'FOOTER' && text !== null) components.push({ type: 'footer', text });
    else if (type === 'BUTTONS' && Array.isArray(part.buttons)) {
      const buttons: NonNullable<TemplateComponent['buttons']> = [];
      for (const b of part.buttons) {
        if (!isObject(b) || typeof b.text !== 'string') return null;
        const kind = typeof b.type === 'string' ? b.type.toUpperCase() : '';
        if (kind === 'QUICK_REPLY') buttons.push({ type: 'quick_reply', text: b.text });
        else if (kind === 'URL' && typeof b.url === 'string' && !VARIABLE.test(b.url)) buttons.push({ type: 'url', text: b.text, url: b.url });
        else if (kind === 'PHONE_NUMBER' && typeof b.phone_number === 'string') buttons.push({ type: 'phone_number', text: b.text, phone_number: b.phone_number });
        else return null;
        VARIABLE.lastIndex = 0;
      }
      components.push({ type: 'buttons', buttons });
    } else return null;
  }
  // The body is numbered after the header: its first variable follows the header's.
  const ordered = ['header', 'body', 'footer', 'buttons'].flatMap((t) => components.filter((c) => c.type === t));
  if (!ordered.some((c) => c.type === 'body')) return null;
  return { name: found.name, language: found.language, category: category as TemplateCategory, status, components: ordered };
}

/**
 * How many templates one page asks for, and how many pages are read at most: 10,000 entries, each a name in one
 * language (Meta's limit is said to be 6,000 names an account, 250 unless raised). A list cut short removes nothing.
 */
const PAGE_SIZE = 100;
export const MAX_PAGES = 100;

/**
 * The name and language of one of Meta's templates that the account still has, whether or not the interface can
 * carry it; null for one Meta deleted (DELETED, PENDING_DELETION) or an entry without them.
 */
export function presentOf(found: unknown): { name: string; language: string } | null {
  if (!isObject(found) || typeof found.name !== 'string' || typeof found.language !== 'string') return null;
  return templateStatusOf(found.status) === 'deleted' ? null : { name: found.name, language: found.language };
}

/**
 * Every template of the account the interface can carry (`listed`), and the name and language of every one Meta
 * still has (`present`: those left out of `listed` as a send could not fill them are not gone), page after page
 * (Meta's cursors); `complete` unless pages were left unread, so that a template missing from `present` is known
 * to be gone from the account.
 */
export async function accountTemplates(api: GraphApi, wabaId: string): Promise<PlatformTemplates> {
  const found: PlatformTemplate[] = [];
  const present: { name: string; language: string }[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer: { data?: unknown; paging?: { next?: unknown; cursors?: { after?: unknown } } } = await api.call('GET', `/${wabaId}/message_templates`, {
      query: { fields: 'name,language,status,category,parameter_format,components', limit: String(PAGE_SIZE), ...(after ? { after } : {}) },
    });
    for (const one of Array.isArray(answer.data) ? answer.data : []) {
      const template = templateOf(one);
      if (template) found.push(template);
      const still = presentOf(one);
      if (still) present.push(still);
    }
    const next = answer.paging?.cursors?.after;
    if (typeof answer.paging?.next !== 'string' || typeof next !== 'string') return { listed: found, present, complete: true };
    after = next;
  }
  return { listed: found, present, complete: false };
}
