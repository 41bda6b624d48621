import type { FieldError } from '../../../contract/errors.ts';
import { AppError, validationError } from '../errors.ts';
import type { Clock, Store } from '../ports.ts';
import { embeddingPolicy } from './policy.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An exact origin, `scheme://host[:port]`, in the form browsers report it (lowercase host, no default port),
 * or an explanation of why not. HTTPS only, except plain HTTP on loopback for development.
 */
export function normalizeOrigin(input: string): { origin: string } | { problem: string } {
  const trimmed = input.trim();
  if (trimmed.includes('*')) return { problem: 'must be an exact origin; wildcards are not allowed' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { problem: 'must be an origin like https://crm.example.com' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must use https' };
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return { problem: 'must use https (plain http only for localhost)' };
  if (url.username || url.password) return { problem: 'must not carry credentials' };
  // Only a bare origin, with at most a trailing slash, is accepted: a path would suggest a scope CSP cannot express.
  const rest = trimmed.slice(trimmed.indexOf('//') + 2).replace(/^[^/?#]*/, '');
  if (rest !== '' && rest !== '/') return { problem: 'must be an origin without a path, query or fragment' };
  return { origin: url.origin };
}

/** The `frame-ancestors` directive for an account's origins; none allowed means no page may frame it. */
export const frameAncestors = (origins: readonly string[]): string =>
  `frame-ancestors ${origins.length > 0 ? origins.join(' ') : "'none'"}`;

export async function listOrigins({ store }: { store: Store }, accountId: string): Promise<string[]> {
  return store.embeddingOrigins.list(accountId);
}

/** Replaces the account's allowed origins; every entry is checked, and all problems are reported at once. */
export async function replaceOrigins({ store, clock }: { store: Store; clock: Clock }, accountId: string, origins: string[]): Promise<string[]> {
  if (origins.length > embeddingPolicy.maxOrigins) {
    throw new AppError('TOO_MANY_ENTITIES', `At most ${embeddingPolicy.maxOrigins} origins are allowed`);
  }
  const normalized: string[] = [];
  const problems: FieldError[] = [];
  origins.forEach((o, i) => {
    const result = normalizeOrigin(o);
    if ('problem' in result) problems.push({ field: `origins.${i}`, message: result.problem });
    else if (!normalized.includes(result.origin)) normalized.push(result.origin);
  });
  if (problems.length > 0) throw validationError(problems);
  await store.transaction((tx) => tx.embeddingOrigins.replace(accountId, normalized, clock.now()));
  return normalized;
}
