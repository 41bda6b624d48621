import { webhookPoster, type WebhookPoster } from './graph-webhooks.ts';
import { appSecretProof, graphError, serveGraphCalls, type GraphCall } from './graph-calls.ts';

/**
 * A local stand-in for Meta's Graph API as Instagram messaging through a Facebook page uses it, for the live
 * driver's tests: users' tokens and the permissions they granted, pages with their tokens and linked Instagram
 * accounts, the pages' subscriptions of the app, people's profiles, and the Send API, answered as Meta answers
 * (`{error: {message, type, code, error_subcode}}` when refused; refusals on demand). Tokens come as
 * `Authorization: Bearer`, each call with its `appsecret_proof`. Its webhook side (webhooks) posts what customers
 * do as Meta does, and an echo of every message the Send API sends: before answering the send (`echoes`), as Meta
 * may, or after, or not at all. Files a send names are fetched by Meta: here, only those it hosts are found.
 *
 * Users' tokens live as Meta's do, on the emulator's clock (`now`): one given by the login is short-lived (an hour),
 * and the page token derived from it dies with it; `GET /oauth/access_token` with `grant_type=fb_exchange_token`
 * and the app's id and secret exchanges a live one for a long-lived user token (60 days), whose page tokens do not
 * expire (the page's own `token`).
 */

/** How long a user token from the login lives (Meta: about an hour), and a long-lived one (Meta: about 60 days). */
export const SHORT_LIVED_MS = 60 * 60_000;
export const LONG_LIVED_MS = 60 * 24 * 60 * 60_000;

/** What Instagram messaging's login asks for, as a person grants it all. */
const LOGIN_PERMISSIONS = ['instagram_basic', 'instagram_manage_messages', 'pages_manage_metadata', 'pages_show_list', 'business_management'];

export interface EmulatedPage {
  id: string;
  name: string;
  token: string;
  instagram?: { id: string; username: string; name: string };
}

type MetaError = { status?: number; code: number; subcode?: number; message: string; headers?: Record<string, string> };

export interface GraphEmulator {
  url: string;
  appSecret: string;
  calls: GraphCall[];
  webhooks: WebhookPoster;
  /** A user's token as the login gives it: short-lived, unless `lifetime: 'long'` (a token exchanged before). */
  addUser(token: string, user: { permissions: string[]; pages: string[] }, options?: { lifetime?: 'short' | 'long' }): void;
  addPage(page: EmulatedPage): void;
  /** Who a customer is, as the User Profile API says, or the error it answers for them. */
  addPerson(igsid: string, profile: { username?: string; name?: string } | { error: MetaError }): void;
  /**
   * The person finishes Facebook Login granting the app these pages and permissions (every one Instagram messaging
   * needs unless said): the code the dialog gives back, worth a short-lived user token once.
   */
  login(user: { pages: string[]; permissions?: string[] }): string;
  /** The fields a page subscribed the app to; null when it has not. */
  subscribedFields(pageId: string): string[] | null;
  /** The token no longer works: every call with it is refused with 190. */
  revoke(token: string): void;
  /** The customer blocked the account: sends are refused with 551. */
  block(igsid: string): void;
  /** The customer's last message is older than 24 hours: sends are refused as outside the window. */
  closeWindow(igsid: string): void;
  /** A file a CRM names in a send, at an address Meta can fetch. */
  hostFile(name: string): string;
  /** The next `times` calls of `METHOD /path` (its version left out, ids as they are) are refused so. */
  failNext(route: string, times: number, error: MetaError): void;
  /** When the echo of a message the Send API sends is posted: before the send is answered, after, or never. */
  echoes: 'before-answer' | 'after-answer' | 'none';
  /** The messages the Send API took, by mid, as they were asked for. */
  sent: Map<string, { pageId: string; body: Record<string, unknown> }>;
  /** A customer writes to an account (they may be written to from now on); the post's first status and the mid. */
  customerWrites(accountId: string, igsid: string, message: Record<string, unknown>, mid?: string): Promise<{ status: number; mid: string }>;
  /** Any other event of a customer (a read, an unsend, an edit, a reaction), posted as Meta posts it. */
  customerEvent(accountId: string, igsid: string, event: Record<string, unknown>): Promise<number>;
  /** The account's owner writes in Instagram's own app: Meta posts its echo. */
  ownerWrites(accountId: string, igsid: string, text: string): Promise<{ status: number; mid: string }>;
  close(): Promise<void>;
}

const err = graphError;


type User = { permissions: string[]; pages: string[]; longLived: boolean; expiresAt: number };

export async function startGraphEmulator(
  appSecret = 'app-secret-0123456789abcdef',
  options: { appId?: string; now?: () => number } = {},
): Promise<GraphEmulator> {
  const appId = options.appId ?? '1234567890123456';
  const now = options.now ?? Date.now;
  const users = new Map<string, User>();
  /** Page tokens derived from short-lived user tokens: they expire with them. */
  const shortPageTokens = new Map<string, { pageId: string; expiresAt: number }>();
  const pages = new Map<string, EmulatedPage>();
  const people = new Map<string, { username?: string; name?: string } | { error: MetaError }>();
  const subscriptions = new Map<string, string[]>();
  const revoked = new Set<string>();
  const blocked = new Set<string>();
  const closed = new Set<string>();
  /** Who wrote to which account: `<account id>/<igsid>`. */
  const conversations = new Set<string>();
  const files = new Set<string>();
  /** Codes Facebook Login gave back, and the user token each is worth (taken once). */
  const codes = new Map<string, { token: string; used: boolean }>();
  const failures = new Map<string, { times: number; error: MetaError }>();
  const calls: GraphCall[] = [];
  const sent = new Map<string, { pageId: string; body: Record<string, unknown> }>();
  const known = new Set<string>();
  const webhooks = webhookPoster(appSecret);
  let next = 1;
  let base = '';
  const newMid = () => Buffer.from(`ig_message_item:1:IGMessageThread:${next++}`).toString('base64');
  const proofOf = (token: string) => appSecretProof(appSecret, token);
  const liveUser = (token: string) => {
    const user = users.get(token);
    return user && !revoked.has(token) && user.expiresAt > now() ? user : undefined;
  };
  const pageOfToken = (token: string) => {
    const short = shortPageTokens.get(token);
    if (short) return short.expiresAt > now() ? pages.get(short.pageId) : undefined;
    return [...pages.values()].find((p) => p.token === token);
  };
  /** The page's token a user's token gives: the page's own from a long-lived user token, else one that dies with it. */
  const pageTokenFor = (page: EmulatedPage, user: User) => {
    if (user.longLived) return page.token;
    const token = `EAAGshortpage${next++}${'s'.repeat(24)}`;
    shortPageTokens.set(token, { pageId: page.id, expiresAt: user.expiresAt });
    return token;
  };

  const emulator: GraphEmulator = {
    url: '',
    appSecret,
    calls,
    webhooks,
    echoes: 'after-answer',
    sent,
    addUser: (token, user, { lifetime = 'short' } = {}) =>
      void users.set(token, { ...user, longLived: lifetime === 'long', expiresAt: now() + (lifetime === 'long' ? LONG_LIVED_MS : SHORT_LIVED_MS) }),
    addPage: (page) => void pages.set(page.id, page),
    login({ pages: granted, permissions = LOGIN_PERMISSIONS }) {
      const code = `AQD${next++}${'c'.repeat(30)}`;
      const token = `EAAGlogin${next++}${'u'.repeat(32)}`;
      users.set(token, { permissions, pages: granted, longLived: false, expiresAt: now() + SHORT_LIVED_MS });
      codes.set(code, { token, used: false });
      return code;
    },
    addPerson: (igsid, profile) => void people.set(igsid, profile),
    subscribedFields: (pageId) => subscriptions.get(pageId) ?? null,
    revoke: (token) => void revoked.add(token),
    block: (igsid) => void blocked.add(igsid),
    closeWindow: (igsid) => void closed.add(igsid),
    hostFile: (name) => {
      files.add(name);
      return `${base}/files/${encodeURIComponent(name)}`;
    },
    failNext: (route, times, error) => void failures.set(route, { times, error }),
    async customerWrites(accountId, igsid, message, mid = newMid()) {
      conversations.add(`${accountId}/${igsid}`);
      known.add(mid);
      const status = await webhooks.postEvents(accountId, [{ sender: { id: igsid }, recipient: { id: accountId }, timestamp: Date.now(), message: { mid, ...message } }]);
      return { status, mid };
    },
    customerEvent: (accountId, igsid, event) => webhooks.postEvents(accountId, [{ sender: { id: igsid }, recipient: { id: accountId }, timestamp: Date.now(), ...event }]),
    async ownerWrites(accountId, igsid, text) {
      const mid = newMid();
      known.add(mid);
      const status = await webhooks.postEvents(accountId, [{ sender: { id: accountId }, recipient: { id: igsid }, timestamp: Date.now(), message: { mid, text, is_echo: true } }]);
      return { status, mid };
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };

  type Answer = { status: number; body: unknown; headers?: Record<string, string> };

  /** The refusal failNext asked for this call, while it lasts. */
  function failing({ method, path }: GraphCall): Answer | null {
    const failure = failures.get(`${method} ${path}`);
    if (!failure || failure.times === 0) return null;
    failure.times--;
    const e = failure.error;
    return err(e.status ?? 400, e.code, e.message, e.subcode, e.headers);
  }

  async function answer(call: GraphCall, proof: string | undefined): Promise<Answer> {
    const { token, method, path, query, body } = call;
    if (method === 'GET' && path === '/oauth/access_token') return failing(call) ?? exchange(query);
    if (users.has(token) && !revoked.has(token) && !liveUser(token)) return err(400, 190, 'Error validating access token: Session has expired.', 463);
    if (shortPageTokens.has(token) && !pageOfToken(token)) return err(400, 190, 'Error validating access token: Session has expired.', 463);
    if (revoked.has(token) || (!users.has(token) && !pageOfToken(token))) return err(400, 190, 'Error validating access token: The session has been invalidated.', 460);
    if (proof !== proofOf(token)) return err(400, 100, 'Invalid appsecret_proof provided in the API argument');
    const failed = failing(call);
    if (failed) return failed;
    const user = liveUser(token);
    const segments = path.split('/').filter(Boolean);
    if (method === 'GET' && path === '/me/permissions' && user) {
      return { status: 200, body: { data: user.permissions.map((permission) => ({ permission, status: 'granted' })) } };
    }
    if (method === 'GET' && path === '/me/accounts' && user) {
      const listed = user.pages.flatMap((id) => (pages.has(id) ? [pages.get(id)!] : []));
      return { status: 200, body: { data: listed.map((p) => ({ id: p.id, name: p.name, ...(p.instagram ? { instagram_business_account: p.instagram } : {}) })), paging: {} } };
    }
    if (method === 'GET' && segments.length === 1 && user) {
      const page = pages.get(segments[0]!);
      if (!page || !user.pages.includes(page.id)) return err(400, 100, `Unsupported get request. Object with ID '${segments[0]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`, 33);
      return { status: 200, body: { id: page.id, name: page.name, access_token: pageTokenFor(page, user), ...(page.instagram ? { instagram_business_account: page.instagram } : {}) } };
    }
    const page = pageOfToken(token);
    if (!page) return err(400, 200, 'Requires a page access token');
    if (segments[1] === 'subscribed_apps' && segments[0] === page.id) {
      if (method === 'POST') subscriptions.set(page.id, (query.subscribed_fields ?? '').split(','));
      if (method === 'DELETE') subscriptions.delete(page.id);
      return { status: 200, body: { success: true } };
    }
    if (method === 'POST' && segments[1] === 'messages' && segments[0] === page.id) return send(page, body);
    if (method === 'GET' && segments.length === 1) {
      const person = people.get(segments[0]!);
      if (!person) return err(400, 100, 'No matching user found', 2018001);
      if ('error' in person) return err(person.error.status ?? 400, person.error.code, person.error.message, person.error.subcode);
      return { status: 200, body: { ...person, id: segments[0] } };
    }
    return err(400, 100, `Unsupported ${method} request`);
  }

  /** A live user token for a long-lived one (the same, when it is long-lived already); Meta's refusals otherwise. */
  function exchange(query: Record<string, string>): Answer {
    if (query.client_id !== appId) return err(400, 101, 'Error validating application. Invalid application ID.');
    if (query.client_secret !== appSecret) return err(400, 1, 'Error validating client secret.');
    if (query.code !== undefined) return codeExchange(query);
    if (query.grant_type !== 'fb_exchange_token') return err(400, 100, 'Unsupported grant_type');
    const given = query.fb_exchange_token ?? '';
    const user = liveUser(given);
    if (!user) return users.has(given) && !revoked.has(given) ? err(400, 190, 'Error validating access token: Session has expired.', 463) : err(400, 190, 'Invalid OAuth access token - Cannot parse access token');
    let token = given;
    if (!user.longLived) {
      token = `EAAGlong${next++}${'l'.repeat(32)}`;
      users.set(token, { permissions: user.permissions, pages: user.pages, longLived: true, expiresAt: now() + LONG_LIVED_MS });
    }
    const expiresIn = Math.floor((users.get(token)!.expiresAt - now()) / 1000);
    return { status: 200, body: { access_token: token, token_type: 'bearer', expires_in: expiresIn } };
  }

  /** Facebook Login's code, taken once, for the address of the dialog it came from. */
  function codeExchange(query: Record<string, string>): Answer {
    const issued = codes.get(query.code ?? '');
    if (!issued) return err(400, 100, 'Invalid verification code format.');
    if (issued.used) return err(400, 100, 'This authorization code has been used.', 36009);
    if (!query.redirect_uri?.endsWith('/hooks/instAPI/authorized')) return err(400, 100, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', 36008);
    issued.used = true;
    return { status: 200, body: { access_token: issued.token, token_type: 'bearer', expires_in: SHORT_LIVED_MS / 1000 } };
  }

  async function send(page: EmulatedPage, body: Record<string, unknown>): Promise<Answer> {
    const account = page.instagram!.id;
    const recipient = (body.recipient as { id?: string } | undefined)?.id ?? '';
    const message = (body.message ?? {}) as { text?: string; attachment?: { type: string; payload: { url: string } } };
    if (!conversations.has(`${account}/${recipient}`)) return err(400, 100, 'No matching user found', 2018001);
    if (blocked.has(recipient)) return err(400, 551, 'This person isn’t available right now.');
    if (closed.has(recipient)) return err(400, 10, 'This message is sent outside of allowed window.', 2534022);
    if (message.text !== undefined && Buffer.byteLength(message.text) > 1000) return err(400, 100, '(#100) Length of param message[text] must be less than or equal to 1000');
    if (message.attachment) {
      const { pathname } = new URL(message.attachment.payload.url);
      if (!pathname.startsWith('/files/') || !files.has(decodeURIComponent(pathname.slice('/files/'.length)))) return err(400, 100, '(#100) Failed to fetch the file from the url', 2018008);
    }
    const quoted = (body.reply_to as { mid?: string } | undefined)?.mid;
    if (quoted !== undefined && !known.has(quoted)) return err(400, 100, '(#100) Param reply_to[mid] is not a valid message id');
    const mid = newMid();
    known.add(mid);
    sent.set(mid, { pageId: page.id, body });
    const echo = {
      sender: { id: account },
      recipient: { id: recipient },
      timestamp: Date.now(),
      message: { mid, is_echo: true, ...(message.text !== undefined ? { text: message.text } : { attachments: [{ type: message.attachment!.type, payload: { url: message.attachment!.payload.url } }] }) },
    };
    if (emulator.echoes === 'before-answer') await webhooks.postEvents(account, [echo]);
    if (emulator.echoes === 'after-answer') setImmediate(() => void webhooks.postEvents(account, [echo]).catch(() => {}));
    return { status: 200, body: { recipient_id: recipient, message_id: mid } };
  }

  const { server, url } = await serveGraphCalls(calls, answer);
  base = url;
  emulator.url = base;
  return emulator;
}
