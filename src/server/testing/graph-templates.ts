import { graphError, type GraphAnswer, type GraphCall } from './graph-calls.ts';

/**
 * The WhatsApp Business Management API's message templates, as the WhatsApp emulator answers them (Meta's documented
 * calls): `GET /{waba_id}/message_templates` (page by page, or by `name`), `POST /{waba_id}/message_templates`
 * (a new template waits for review, PENDING), `POST /{template_id}` (an edit goes back to review) and
 * `DELETE /{waba_id}/message_templates?name=…[&hsm_id=…]`. Refused as Meta refuses, with `error_user_title` and
 * `error_user_msg`: a name and language the account has already (subcode 2388024), a part with variables and no
 * sample values, a category Meta does not know.
 */

export interface EmulatedTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: Record<string, unknown>[];
  parameter_format?: string;
}

const CATEGORIES = new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION']);
const VARIABLE = /\{\{\s*\d{1,3}\s*\}\}/;

/** Meta's refusal of a template, with what it says of it for people. */
function refused(code: number, message: string, subcode: number, title: string, user: string): GraphAnswer {
  const answer = graphError(400, code, message, subcode);
  (answer.body as { error: Record<string, unknown> }).error.error_user_title = title;
  (answer.body as { error: Record<string, unknown> }).error.error_user_msg = user;
  return answer;
}

/** What Meta finds wrong with a template's parts, or null. */
function problemOf(components: unknown): GraphAnswer | null {
  if (!Array.isArray(components) || !components.some((c) => (c as { type?: unknown }).type === 'BODY')) {
    return refused(100, 'Invalid parameter', 2388072, 'Message body is missing', 'A template needs a body.');
  }
  for (const c of components as { type?: string; text?: string; example?: unknown }[]) {
    if ((c.type === 'BODY' || c.type === 'HEADER') && typeof c.text === 'string' && VARIABLE.test(c.text) && c.example === undefined) {
      return refused(100, 'Invalid parameter', 2388043, 'Message template’s example is missing', `Add sample values for the variables of the ${c.type.toLowerCase()}.`);
    }
  }
  return null;
}

export function templateCalls(
  accounts: Map<string, { templates: EmulatedTemplate[] }>,
  grantedWaba: string,
  call: GraphCall,
  newId: () => string,
  base: string,
): GraphAnswer | null {
  const { method, path, query, body } = call;
  const [first, edge] = path.split('/').filter(Boolean) as [string, string | undefined];
  const account = accounts.get(first);
  if (account && edge === 'message_templates') {
    if (method === 'GET') {
      const listed = query.name ? account.templates.filter((t) => t.name === query.name) : account.templates;
      const limit = Number(query.limit ?? 2);
      const from = Number(query.after ?? 0);
      const page = listed.slice(from, from + limit);
      const more = from + limit < listed.length;
      return { status: 200, body: { data: page, paging: { cursors: { before: String(from), after: String(from + limit) }, ...(more ? { next: `${base}/v24.0/${first}/message_templates?after=${from + limit}` } : {}) } } };
    }
    if (method === 'POST') {
      const { name, language, category, components } = body as { name?: string; language?: string; category?: string; components?: unknown };
      if (typeof name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(name) || typeof language !== 'string') return graphError(400, 100, 'Invalid parameter');
      if (!CATEGORIES.has(String(category))) return refused(100, 'Invalid parameter', 2388042, 'Invalid category', 'The category must be MARKETING, UTILITY or AUTHENTICATION.');
      if (account.templates.some((t) => t.name === name && t.language === language)) {
        return refused(100, 'Invalid parameter', 2388024, 'Content in this language already exists', 'There is already a template with this name in this language.');
      }
      const problem = problemOf(components);
      if (problem) return problem;
      const template: EmulatedTemplate = { id: newId(), name, language, status: 'PENDING', category: String(category), components: components as Record<string, unknown>[] };
      account.templates.push(template);
      return { status: 200, body: { id: template.id, status: template.status, category: template.category } };
    }
    if (method === 'DELETE') {
      const gone = account.templates.filter((t) => t.name === query.name && (query.hsm_id === undefined || t.id === query.hsm_id));
      if (gone.length === 0) return graphError(400, 100, 'Message template not found', 2593002);
      account.templates = account.templates.filter((t) => !gone.includes(t));
      return { status: 200, body: { success: true } };
    }
  }
  const owner = [...accounts.entries()].find(([, a]) => a.templates.some((t) => t.id === first));
  if (owner && edge === undefined && method === 'POST') {
    if (owner[0] !== grantedWaba) return graphError(403, 200, 'Permissions error');
    const template = owner[1].templates.find((t) => t.id === first)!;
    const { category, components } = body as { category?: string; components?: unknown };
    if (category !== undefined && !CATEGORIES.has(category)) return refused(100, 'Invalid parameter', 2388042, 'Invalid category', 'The category must be MARKETING, UTILITY or AUTHENTICATION.');
    const problem = components === undefined ? null : problemOf(components);
    if (problem) return problem;
    Object.assign(template, { ...(category ? { category } : {}), ...(components ? { components } : {}), status: 'PENDING' });
    return { status: 200, body: { success: true } };
  }
  return null;
}
