import { Value } from 'typebox/value';
import type { TSchema } from 'typebox';
import type { ErrorCode, FieldError } from '../../../contract/errors.ts';
import { assertEntityCount } from '../entity-limit.ts';
import { AppError } from '../errors.ts';

/**
 * Items of a CRM call as the service takes them: at most 100 (403 TOO_MANY_ENTITIES), each checked against its
 * schema, bad data answered with the entity's own code (INVALID_CONTACT_DATA…) naming every field and why.
 */
export function checkedItems<T>(schema: TSchema, items: unknown, field: string, code: ErrorCode, what: string): T[] {
  if (!Array.isArray(items) || items.length === 0) throw new AppError(code, `Invalid ${what} data`, { fields: [{ field, message: 'must be a non-empty array' }] });
  assertEntityCount(items.length);
  const problems: FieldError[] = items.flatMap((item, i) =>
    [...Value.Errors(schema, item)].map((e) => ({ field: `${field}.${i}${e.instancePath.replace(/\//g, '.')}`, message: e.message })),
  );
  if (problems.length > 0) throw new AppError(code, `Invalid ${what} data`, { fields: problems });
  return items as T[];
}

/** Ids however a CRM lists them: a bare array, or under one of `keys`; each an id or `{id}`. At most 100. */
export function idsOf(body: unknown, keys: string[]): string[] {
  const list = Array.isArray(body) ? body : keys.map((k) => (body as Record<string, unknown> | null | undefined)?.[k]).find(Array.isArray);
  if (!Array.isArray(list) || list.length === 0) throw new AppError('VALIDATION_ERROR', 'Ids are required', { fields: [{ field: keys[0]!, message: 'must list the ids' }] });
  assertEntityCount(list.length);
  const ids = list.map((item: unknown) => (typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : item));
  const bad = ids.findIndex((id) => (typeof id !== 'string' && typeof id !== 'number') || String(id) === '' || String(id).length > 100);
  if (bad >= 0) throw new AppError('VALIDATION_ERROR', 'Ids are required', { fields: [{ field: `${keys[0]}.${bad}`, message: 'must be an id or {id}' }] });
  return [...new Set(ids.map(String))];
}

/** The last entry wins when one id is given twice in a call. */
export const lastById = <T extends { id: string }>(items: T[]): T[] => [...new Map(items.map((i) => [i.id, i])).values()];
