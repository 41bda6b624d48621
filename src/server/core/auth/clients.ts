import { randomBytes } from 'node:crypto';
import { AppError } from '../errors.ts';
import type { Clock } from '../ports.ts';
import type { Caller } from './grants.ts';
import type { AuthRepository, OAuthClientRecord } from './ports.ts';

export interface OAuthClientView {
  client_id: string;
  name: string;
  redirect_uris: string[];
  created_at: string;
}

const view = (c: OAuthClientRecord): OAuthClientView => ({ client_id: c.id, name: c.name, redirect_uris: c.redirectUris, created_at: c.createdAt.toISOString() });

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A redirect URI is an absolute https address without a fragment; plain http only to this machine (for development). */
function checkRedirectUri(uri: string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new AppError('VALIDATION_ERROR', `Not an absolute URL: ${uri}`);
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  if (!secure || url.hash || uri.includes('#')) throw new AppError('VALIDATION_ERROR', `A redirect URI must be https (http only on loopback) and carry no fragment: ${uri}`);
}

/** Registers an OAuth client of the calling partner; its redirect URIs are matched exactly. */
export async function registerClient(
  deps: { auth: AuthRepository; clock: Clock },
  caller: Caller,
  input: { name: string; redirect_uris: string[] },
): Promise<OAuthClientView> {
  if (input.redirect_uris.length === 0) throw new AppError('VALIDATION_ERROR', 'At least one redirect URI is required');
  input.redirect_uris.forEach(checkRedirectUri);
  const record: OAuthClientRecord = {
    id: `mgcl_${randomBytes(12).toString('hex')}`,
    partnerId: caller.partnerId,
    name: input.name.trim(),
    redirectUris: [...new Set(input.redirect_uris)],
    createdAt: deps.clock.now(),
  };
  await deps.auth.clients.insert(record);
  return view(record);
}

export async function listClients(auth: AuthRepository, caller: Caller): Promise<OAuthClientView[]> {
  return (await auth.clients.list(caller.partnerId)).map(view);
}
