import type { FieldError } from '../../../../contract/errors.ts';
import { AppError } from '../../../core/errors.ts';
import { V3Error } from './errors.ts';

const camel = (field: string) => field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A use-case's refusal of a bare-array write in v3's words: the entity's plural code (INVALID_CONTACTS_DATA...)
 * and `data: [{index, fields}]` naming each bad item's fields in camelCase.
 */
export function entityError(err: unknown, code: string): unknown {
  if (!(err instanceof AppError) || err.status !== 400) return err;
  const given = (err.data?.fields ?? []) as FieldError[];
  const byIndex = new Map<number, Set<string>>();
  const loose: string[] = [];
  for (const { field, message } of given) {
    const m = /^[a-z_]+\.(\d+)(?:\.(.+))?$/.exec(field);
    if (!m) {
      loose.push(camel(field.replace(/^[a-z_]+\.?/, '')) || 'body');
      continue;
    }
    const set = byIndex.get(Number(m[1])) ?? new Set<string>();
    // A missing field is reported at its item, naming it in the message.
    const missing = /required propert(?:y|ies) '?([\w, ]+?)'?$/.exec(message)?.[1]?.split(/,\s*/) ?? [];
    const under = m[2] ? `${camel(m[2])}.` : '';
    if (missing.length > 0) for (const name of missing) set.add(`${under}${camel(name)}`);
    else set.add(m[2] ? camel(m[2]) : 'item');
    byIndex.set(Number(m[1]), set);
  }
  const description = given.map((f) => `${camel(f.field)} ${f.message}`).join('; ') || err.message;
  if (byIndex.size === 0) return new V3Error(400, code, description, { fields: loose });
  return new V3Error(400, code, description, [...byIndex].map(([index, fields]) => ({ index, fields: [...fields] })));
}

/** Runs a write, answering its refusals as `entityError` says. */
export async function inEntityWords<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw entityError(err, code);
  }
}

/** Ids as text (a CRM may send numbers); a bare array of ids is required. */
export function idList(body: unknown): string[] {
  if (!Array.isArray(body) || body.length === 0) throw new V3Error(400, 'VALIDATION_ERROR', 'A bare array of ids is required', { fields: ['body'] });
  return [...new Set(body.map(String))];
}
