import { credentialRefusals } from '../../../contract/credential-fields.ts';
import type { ChannelRecord, ConnectOutcome } from '../../core/channels/ports.ts';
import type { CallPacer } from '../call-pacer.ts';
import { pacedPage, pageOf, type InstagramDeps, type PageCredentials } from './account.ts';
import { GraphApiError, graphApi } from '../meta/graph-api.ts';
import { ACCESS_TOKEN, metaUnavailable } from '../meta/login-code.ts';
import { isTokenRefused } from './graph-failures.ts';

/**
 * Connecting an Instagram account through the Facebook page it is linked to (Instagram messaging with Facebook
 * Login): the four credentials are checked with Meta, the page is subscribed to the app's webhooks, and the page's
 * token, derived from a long-lived user token so that it does not expire, is kept in place of the user's.
 */

/**
 * The page's webhook fields the app is subscribed to. Meta posts an Instagram account's messaging events only when
 * the page linked to it has subscribed the app (to any of the page's fields, Meta says), and only the fields the
 * app subscribed to in its dashboard, on the Instagram object (messages, messaging_seen…). Those named here are the
 * page's messaging fields documented for the Messenger Platform. A change here is brought to the pages subscribed
 * before by the hook refresh (subscription.ts).
 */
export const PAGE_FIELDS: readonly string[] = ['messages', 'messaging_postbacks', 'message_reads', 'message_reactions'];

/** What Meta documents an app needs of the user for Instagram messaging's webhooks and sends. */
const REQUIRED_PERMISSIONS = ['instagram_basic', 'instagram_manage_messages', 'pages_manage_metadata'];

/** Meta's ids are numbers; they go into a URL's path, so nothing else is let through. */
const NUMERIC_ID = /^\d{1,32}$/;

type Pacers = { account: CallPacer; media: CallPacer };
type Refusal = Extract<ConnectOutcome, { kind: 'refused' }>;

const refused = (field: string, message: string): Refusal => ({ kind: 'refused', field, message });
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Meta out of reach, or failing: the connect is a 503 saying why (nothing is stored). */
const unavailable = metaUnavailable;

/** A permission error of the Graph API (10, 200–299): the user did not grant the app what it needs. */
const isPermissionError = (err: unknown) => err instanceof GraphApiError && (err.code === 10 || (err.code >= 200 && err.code <= 299));

/** The page and its Instagram account as the user's token sees them. */
interface PageAnswer {
  name?: string;
  access_token?: string;
  instagram_business_account?: { id?: string; username?: string; name?: string };
}

/**
 * The user's token exchanged for a long-lived one (Meta's "Long-Lived Access Tokens": `GET /oauth/access_token` with
 * `grant_type=fb_exchange_token`, the app's id and secret, and the token; answered `{access_token, token_type,
 * expires_in}`). A page token derived from a short-lived user token (the login's, about an hour) expires with it; one
 * derived from a long-lived user token does not expire (Meta's "Get a Long-Lived Page Access Token"). The app's secret
 * goes in the query, as Meta documents, as the exchange of WhatsApp's signup codes does: the call carries no token
 * and no request is logged. Inferred: that a token long-lived already is exchanged too (Meta answers one again).
 * A token Meta refuses (expired, revoked, not a user's) is a refusal of `user_token`; Meta failing, a 503.
 */
export async function longLivedToken(deps: InstagramDeps, userToken: string): Promise<string | Refusal> {
  let answer: { access_token?: unknown };
  try {
    answer = await graphApi(deps.graphUrl, null, deps.appSecret, deps.timeoutMs).call('GET', '/oauth/access_token', {
      query: { grant_type: 'fb_exchange_token', client_id: deps.appId, client_secret: deps.appSecret, fb_exchange_token: userToken },
    });
  } catch (err) {
    // The token itself (190: expired, revoked, not a token); anything else is the app's or Meta's (a wrong app id or
    // secret, Meta failing): a 503 saying what Meta said, for the operator.
    if (isTokenRefused(err)) return refused('user_token', credentialRefusals.notAcceptedByMeta);
    throw unavailable(err, 'the exchange of the user token');
  }
  if (!isObject(answer) || typeof answer.access_token !== 'string' || !ACCESS_TOKEN.test(answer.access_token)) throw unavailable(new Error('no token in the answer'), 'the exchange of the user token');
  return answer.access_token;
}

/**
 * Connects a channel: the user's token is exchanged for a long-lived one (longLivedToken), which grants what
 * Instagram messaging needs (`GET /me/permissions`), manages the page and gets the page's token (`GET /{page_id}`),
 * the page's Instagram account is `inst_id` and is named
 * `username` (compared as Instagram does, whatever the case); then the page subscribes the app
 * (`POST /{page_id}/subscribed_apps`). A refusal names the field at fault; Meta out of reach is a 503. With another
 * account in the channel's place (a reinit), the one before is let go of.
 */
export async function connectInstagram(
  deps: InstagramDeps,
  pacers: Pacers,
  channelId: string,
  credentials: Record<string, unknown>,
  previous?: Pick<ChannelRecord, 'messengerId' | 'credentials'>,
): Promise<ConnectOutcome> {
  const [username, pageId, instId, userToken] = [credentials.username, credentials.page_id, credentials.inst_id, credentials.user_token].map(text) as [string, string, string, string];
  if (username.includes('@')) return refused('username', credentialRefusals.atSignInUsername);
  if (!NUMERIC_ID.test(pageId)) return refused('page_id', credentialRefusals.notNumericId);
  if (!NUMERIC_ID.test(instId)) return refused('inst_id', credentialRefusals.notNumericId);
  if (!ACCESS_TOKEN.test(userToken)) return refused('user_token', credentialRefusals.notAcceptedByMeta);
  const longLived = await longLivedToken(deps, userToken);
  if (typeof longLived !== 'string') return longLived;
  const user = graphApi(deps.graphUrl, longLived, deps.appSecret, deps.timeoutMs);

  let granted: Set<string>;
  try {
    const answer = await user.call<{ data?: unknown }>('GET', '/me/permissions');
    const rows = Array.isArray(answer?.data) ? answer.data : [];
    granted = new Set(rows.filter((r) => isObject(r) && r.status === 'granted' && typeof r.permission === 'string').map((r) => (r as { permission: string }).permission));
  } catch (err) {
    if (isTokenRefused(err)) return refused('user_token', credentialRefusals.notAcceptedByMeta);
    throw unavailable(err, 'GET /me/permissions');
  }
  if (REQUIRED_PERMISSIONS.some((p) => !granted.has(p))) return refused('user_token', credentialRefusals.lacksInstagramPermissions);

  let page: PageAnswer;
  try {
    page = await user.call<PageAnswer>('GET', `/${pageId}`, { query: { fields: 'name,access_token,instagram_business_account{id,username,name}' } });
  } catch (err) {
    if (isTokenRefused(err)) return refused('user_token', credentialRefusals.notAcceptedByMeta);
    // 100 (no such object, or not one the token may read) and 803 (no such alias): not a page of this user.
    if (err instanceof GraphApiError && (err.code === 100 || err.code === 803 || isPermissionError(err))) return refused('page_id', credentialRefusals.notManagedPage);
    throw unavailable(err, `GET /${pageId}`);
  }
  // Meta gives the page's token only to a user with a task on the page.
  if (!isObject(page) || typeof page.access_token !== 'string' || !ACCESS_TOKEN.test(page.access_token)) return refused('page_id', credentialRefusals.notManagedPage);
  const account = isObject(page.instagram_business_account) ? page.instagram_business_account : null;
  if (account?.id !== instId) return refused('inst_id', credentialRefusals.notLinkedInstagramAccount);
  const accountName = typeof account.username === 'string' ? account.username : '';
  if (accountName === '' || accountName.toLowerCase() !== username.toLowerCase()) return refused('username', credentialRefusals.notInstagramAccountName);

  const kept: PageCredentials = { username: accountName, page_id: pageId, inst_id: instId, page_token: page.access_token };
  try {
    await pacedPage(deps, pacers, kept).call('POST', `/${pageId}/subscribed_apps`, { query: { subscribed_fields: PAGE_FIELDS.join(',') } });
  } catch (err) {
    if (isPermissionError(err)) return refused('user_token', credentialRefusals.lacksInstagramPermissions);
    if (isTokenRefused(err)) return refused('user_token', credentialRefusals.notAcceptedByMeta);
    throw unavailable(err, `POST /${pageId}/subscribed_apps`);
  }
  // Another account in the channel's place: the one before stops posting here, unless another channel has it.
  const before = previous?.messengerId !== instId ? (previous?.credentials ?? null) : null;
  const name = (typeof account.name === 'string' && account.name) || (typeof page.name === 'string' && page.name) || accountName;
  return {
    kind: 'ready',
    profile: { messengerId: instId, username: accountName, name },
    credentials: { ...kept },
    ...(before ? { letGo: () => letGoOfPage(deps, pacers, channelId, before) } : {}),
  };
}

/**
 * The channel no longer takes its account's updates (deleted, or given another account): the page unsubscribes the
 * app (`DELETE /{page_id}/subscribed_apps`), unless another channel of the gateway has the same account, whose
 * updates the page's subscription still brings. Throws when Meta cannot be told.
 */
export async function letGoOfPage(deps: InstagramDeps, pacers: Pacers, channelId: string, sealed: string | null, signal?: AbortSignal): Promise<void> {
  const page = pageOf(deps.cipher, sealed);
  const holders = (await deps.channels.listByMessengerId('instAPI', page.inst_id)).filter((c) => c.id !== channelId);
  if (holders.length > 0) return;
  await pacedPage(deps, pacers, page, signal ? { signal } : {}).call('DELETE', `/${page.page_id}/subscribed_apps`);
}
