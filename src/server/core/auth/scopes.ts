import { AppError } from '../errors.ts';
import { allScopes, type Scope } from './ports.ts';

/**
 * Scopes as clients send them: `"transport,crm"` (the service's way) or space-separated (OAuth's). Absent or empty
 * asks for `fallback`; an unknown name, or separators naming none, is `invalid_scope`.
 */
export function parseScopes(raw: unknown, fallback: readonly Scope[] = allScopes): Scope[] {
  if (raw === undefined || raw === null || raw === '') return [...fallback];
  if (typeof raw !== 'string') throw new AppError('invalid_scope', 'scope must be a string such as "transport,crm"');
  const names = raw.split(/[\s,]+/).filter(Boolean);
  // `","` names no scope: neither every scope nor a grant of none, which routes without a scope of their own would still let in.
  if (names.length === 0) throw new AppError('invalid_scope', 'scope names no scope; leave it out for every scope');
  const unknown = names.filter((n) => !(allScopes as readonly string[]).includes(n));
  if (unknown.length > 0) throw new AppError('invalid_scope', `Unknown scope: ${unknown.join(', ')}`);
  return allScopes.filter((s) => names.includes(s));
}

/** `wanted` must lie within `held`: a token never widens what it came from. */
export function narrowed(wanted: readonly Scope[], held: readonly Scope[]): Scope[] {
  const beyond = wanted.filter((s) => !held.includes(s));
  if (beyond.length > 0) throw new AppError('invalid_scope', `Scope beyond what was granted: ${beyond.join(', ')}`);
  return [...wanted];
}

export const scopeText = (scopes: readonly Scope[]) => scopes.join(',');
