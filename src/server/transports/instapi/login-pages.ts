import { graphApi } from '../meta/graph-api.ts';
import { metaUnavailable } from '../meta/login-code.ts';
import type { InstagramDeps } from './account.ts';

/**
 * The Facebook pages a login granted that have an Instagram business account no other channel has (documented:
 * `GET /me/accounts`, the pages the user has a task on and shared with the app, each with the fields asked;
 * `instagram_business_account` is the Instagram professional account linked to the page). One page of 100 is read:
 * a person with more pages than that chooses them in the login dialog.
 */

/** A page the owner may connect, as the page of choices offers it (kept, sealed, while the owner chooses). */
export interface FreePage {
  /** The Facebook page's id (the choice's id). */
  id: string;
  name: string;
  inst_id: string;
  username: string;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const isMetaId = (x: unknown): x is string => typeof x === 'string' && /^\d{1,32}$/.test(x);
const text = (x: unknown): string => (typeof x === 'string' && x.length <= 512 ? x : '');

/** Whether another channel than `channelId` has the Instagram account. */
export async function accountTakenByAnother(deps: Pick<InstagramDeps, 'channels'>, channelId: string, instId: string): Promise<boolean> {
  return (await deps.channels.listByMessengerId('instAPI', instId)).some((c) => c.id !== channelId);
}

/** The pages granted with an Instagram account free for the channel, its own account (before a reinit) first. Throws where Meta could not be asked. */
export async function freePages(deps: InstagramDeps, channel: { id: string; messengerId: string | null }, userToken: string): Promise<FreePage[]> {
  let listed: unknown[];
  try {
    const answer = await graphApi(deps.graphUrl, userToken, deps.appSecret, deps.timeoutMs).call<{ data?: unknown }>('GET', '/me/accounts', {
      query: { fields: 'id,name,instagram_business_account{id,username,name}', limit: '100' },
    });
    listed = Array.isArray(answer.data) ? answer.data : [];
  } catch (err) {
    throw metaUnavailable(err, 'GET /me/accounts');
  }
  const pages: FreePage[] = [];
  for (const page of listed) {
    if (!isObject(page) || !isMetaId(page.id) || !isObject(page.instagram_business_account)) continue;
    const account = page.instagram_business_account;
    if (!isMetaId(account.id) || text(account.username) === '' || (await accountTakenByAnother(deps, channel.id, account.id))) continue;
    pages.push({ id: page.id, name: text(page.name), inst_id: account.id, username: text(account.username) });
  }
  return pages.sort((a, b) => Number(b.inst_id === channel.messengerId) - Number(a.inst_id === channel.messengerId));
}
