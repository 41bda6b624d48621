import type { EmbeddingDeps } from './ports.ts';

/**
 * A grant names the credential that minted a link, carried into the session the link is exchanged for. Revoking
 * the credential ends its grant: every open session it minted is revoked (its frames get `session_ended`) and its
 * links not yet used are refused. Any credential can be a grant; a kind prefix keeps their ids apart.
 */
export const tokenGrant = (tokenId: string): string => `token:${tokenId}`;

/** Ends everything the grant minted; returns how many open sessions were ended. */
export async function endGrant(deps: Pick<EmbeddingDeps, 'store' | 'clock'> & { live?: EmbeddingDeps['live'] | undefined }, grant: string): Promise<number> {
  const ids = await deps.store.embedSessions.endGrant(grant, deps.clock.now());
  // Without the realtime side (the command line), revoked sessions' frames end at their next renewal check.
  if (ids.length > 0) await deps.live?.end(ids);
  return ids.length;
}
