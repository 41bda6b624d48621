import type { FastifyRequest } from 'fastify';
import { accountOf } from '../../plugins/auth.ts';

/**
 * Who calls a v3 route: the account, and which key it holds. `client` is the account's API key (its long-lived
 * client token) or an OAuth access token; `sidecar` is a sidecar key, which reaches only the channel list, sending,
 * the webhook address and the templates, and whose `crmUserId` is ignored.
 */
export interface V3Caller {
  accountId: string;
  keyKind: 'client' | 'sidecar';
}

/** The caller of a v3 route (the auth hook has already checked the key and the route's access). */
export function v3CallerOf(request: FastifyRequest): V3Caller {
  const principal = accountOf(request);
  return { accountId: principal.accountId, keyKind: principal.kind };
}
