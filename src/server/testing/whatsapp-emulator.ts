import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { webhookPoster, type WebhookPoster } from './graph-webhooks.ts';
import { serveFile } from './file-server.ts';
import { appSecretProof, graphError, serveGraphCalls, type GraphCall } from './graph-calls.ts';
import { templateCalls, type EmulatedTemplate } from './graph-templates.ts';
import { warmWapi } from './schema-check/warm.ts';
import { schemaChecks, type SchemaChecks } from './schema-check/schema-checks.ts';
import { wapiAnswer, wapiRouteOf, wapiSend, wapiWebhook } from './schema-check/wapi-schema.ts';

/**
 * A local stand-in for Meta's Graph API as WhatsApp's Cloud API and Embedded Signup use it, for the live driver's
 * tests, over real HTTP: codes the login dialog gives back, exchanged once for a business token
 * (`/oauth/access_token`), what the token was granted (`/debug_token`, with the app's token), accounts and their
 * numbers, the accounts' subscriptions of the app, numbers' registration, the messages endpoint (answering the customer's WhatsApp id, waIdOf; refusals on demand,
 * and as Meta refuses outside the 24-hour window), media behind the token, and templates. Its webhook side posts what
 * Meta posts to the app's callback, signed with the app secret (shared with the Instagram emulator's). Each send the
 * driver makes, each answer to a send, a media lookup, a read of numbers or a refusal, and each `messages`
 * notification are checked against whatsapp-api-js's types of the Cloud API (schemas/wapi.json; the numbers as
 * @great-detail/whatsapp types them, wapi-numbers.json); `close()` throws the mismatches.
 */

/** A call of the gateway's, as the emulator records it. */
export type WhatsAppCall = GraphCall;

export interface EmulatedNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating?: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN';
  /** The number's status (Meta's phone number `status`: CONNECTED, PENDING, FLAGGED, …); CONNECTED when not given. */
  status?: string;
  messaging_limit_tier?: string;
  platform_type?: 'CLOUD_API' | 'NOT_APPLICABLE';
}

export type { EmulatedTemplate } from './graph-templates.ts';

type MetaError = { status?: number; code: number; subcode?: number; message: string; headers?: Record<string, string> };

export interface WhatsAppEmulator {
  url: string;
  appId: string;
  appSecret: string;
  calls: WhatsAppCall[];
  webhooks: WebhookPoster;
  /** A WhatsApp Business Account with its numbers and templates. */
  addAccount(wabaId: string, numbers: EmulatedNumber[], templates?: EmulatedTemplate[]): void;
  /** The owner finishes Embedded Signup sharing `wabaId`: the code the dialog gives back, and the business token it is worth. */
  signup(wabaId: string, options?: { messaging?: boolean }): { code: string; token: string };
  /** Whether the app is subscribed to the account's webhooks. */
  subscribed(wabaId: string): boolean;
  /** The PIN a number was registered with; undefined when it was not. */
  registered(phoneNumberId: string): string | undefined;
  /** The token no longer works: every call with it is refused with 190. */
  revoke(token: string): void;
  /** The customer last wrote more than 24 hours ago: only templates reach them (131047). */
  closeWindow(waId: string): void;
  /** A file a CRM names in a send, at an address Meta can fetch. */
  hostFile(name: string): string;
  /** A customer's media, behind the token: its id. */
  addMedia(bytes: Buffer, mimeType: string): string;
  /** The media a number uploaded (`POST /{phone_number_id}/media`), by the id Meta answered. */
  uploads: Map<string, { phoneNumberId: string; bytes: Buffer; mimeType: string; name: string }>;
  /** The next `times` calls of `METHOD /path` are refused so. */
  failNext(route: string, times: number, error: MetaError): void;
  /** The messages the endpoint took, by wamid, with the WhatsApp id of the customer they went to. */
  sent: Map<string, { phoneNumberId: string; body: Record<string, unknown>; waId: string }>;
  setTemplates(wabaId: string, templates: EmulatedTemplate[]): void;
  /** The account's templates as Meta has them now (those the gateway submitted among them). */
  templates(wabaId: string): EmulatedTemplate[];
  /** Meta reviews a template: its new status, posted as the account's `message_template_status_update`. */
  review(wabaId: string, name: string, language: string, status: string): Promise<number>;
  /** One change of a WhatsApp Business Account, posted as Meta posts it: `{object: 'whatsapp_business_account', entry: [{id, changes: [{field, value}]}]}`. */
  postChange(wabaId: string, field: string, value: Record<string, unknown>, options?: { retry?: boolean }): Promise<number>;
  /** A customer writes to a number: the message's wamid and the post's first answer. */
  customerWrites(wabaId: string, phoneNumberId: string, from: { waId: string; name: string }, message: Record<string, unknown>, wamid?: string): Promise<{ status: number; wamid: string }>;
  /** Meta reports on a sent message (`sent`, `delivered`, `read`, `failed` with errors). */
  status(wabaId: string, phoneNumberId: string, wamid: string, status: string, extra?: Record<string, unknown>, options?: { retry?: boolean }): Promise<number>;
  /** The sends, answers and notifications checked against whatsapp-api-js's types (schemas/wapi.json). */
  schema: SchemaChecks;
  close(): Promise<void>;
}

const err = graphError;

/**
 * The WhatsApp id of the customer behind a number a send gives, as Meta answers it (`contacts[].wa_id` beside the
 * `input`): a Brazilian mobile written with its ninth digit has the id of an account made before the digit (the
 * number without it); a Mexican mobile written without the 1 after 52 has the id with it; an Argentine mobile written
 * without the 9 after 54 has the id with it. Any other number is its own id (and so is the id itself, sent to).
 */
export function waIdOf(to: string): string {
  const brazil = /^55(\d{2})9([6-9]\d{7})$/.exec(to);
  if (brazil) return `55${brazil[1]}${brazil[2]}`;
  const mexico = /^52([2-9]\d{9})$/.exec(to);
  if (mexico) return `521${mexico[1]}`;
  const argentina = /^54([1-8]\d{9})$/.exec(to);
  if (argentina) return `549${argentina[1]}`;
  return to;
}

export async function startWhatsAppEmulator(options: { appId?: string; appSecret?: string } = {}): Promise<WhatsAppEmulator> {
  const appId = options.appId ?? '1234567890123456';
  const appSecret = options.appSecret ?? 'app-secret-0123456789abcdef';
  const accounts = new Map<string, { numbers: EmulatedNumber[]; templates: EmulatedTemplate[] }>();
  const codes = new Map<string, { token: string; used: boolean }>();
  const tokens = new Map<string, { wabaId: string; messaging: boolean }>();
  const subscriptions = new Set<string>();
  const registrations = new Map<string, string>();
  const revoked = new Set<string>();
  const closed = new Set<string>();
  const files = new Set<string>();
  const media = new Map<string, { bytes: Buffer; mimeType: string }>();
  const uploads: WhatsAppEmulator['uploads'] = new Map();
  const failures = new Map<string, { times: number; error: MetaError }>();
  const calls: WhatsAppCall[] = [];
  const sent = new Map<string, { phoneNumberId: string; body: Record<string, unknown>; waId: string }>();
  const webhooks = webhookPoster(appSecret);
  const schema = schemaChecks('WhatsApp');
  warmWapi();
  let next = 1;
  let base = '';
  const newWamid = () => `wamid.${Buffer.from(`HBgLMTU1NTAxMDAwMDEVAgARGBI${next++}`).toString('base64')}`;
  const proofOf = (token: string) => appSecretProof(appSecret, token);
  const accountOfNumber = (phoneNumberId: string) => [...accounts.entries()].find(([, a]) => a.numbers.some((n) => n.id === phoneNumberId))?.[0];

  const postChange: WhatsAppEmulator['postChange'] = (wabaId, field, value, { retry = true } = {}) => {
    const body = { object: 'whatsapp_business_account', entry: [{ id: wabaId, changes: [{ field, value }] }] };
    // whatsapp-api-js types the `messages` field only (not templates' or the account's).
    if (field === 'messages') schema.check('webhook messages', wapiWebhook(), body);
    return webhooks.post(body, { retry });
  };
  const metadataOf = (phoneNumberId: string) => {
    const number = [...accounts.values()].flatMap((a) => a.numbers).find((n) => n.id === phoneNumberId);
    return { display_phone_number: number?.display_phone_number.replace(/\D/g, '') ?? '', phone_number_id: phoneNumberId };
  };

  const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  /** A customer's media the emulator hosts, as Meta posts it: with its file's SHA-256 and its download address. */
  const withMediaUrl = (message: Record<string, unknown>): Record<string, unknown> => {
    const kind = String(message.type);
    const file = message[kind] as { id?: string } | undefined;
    const found = file?.id === undefined ? undefined : media.get(file.id);
    return found ? { ...message, [kind]: { sha256: sha256Of(found.bytes), url: `${base}/media/${file!.id}?ext=1`, ...file } } : message;
  };

  const emulator: WhatsAppEmulator = {
    url: '',
    appId,
    appSecret,
    calls,
    webhooks,
    sent,
    uploads,
    addAccount: (wabaId, numbers, templates = []) => void accounts.set(wabaId, { numbers, templates }),
    setTemplates: (wabaId, templates) => void (accounts.get(wabaId)!.templates = templates),
    templates: (wabaId) => accounts.get(wabaId)!.templates,
    review(wabaId, name, language, status) {
      const template = accounts.get(wabaId)!.templates.find((t) => t.name === name && t.language === language)!;
      template.status = status;
      return postChange(wabaId, 'message_template_status_update', { event: status, message_template_id: Number(template.id), message_template_name: name, message_template_language: language, reason: 'NONE' });
    },
    signup(wabaId, { messaging = true } = {}) {
      const code = `AQB${randomBytes(24).toString('base64url')}`;
      const token = `EAAGbiz${randomBytes(24).toString('base64url')}`;
      codes.set(code, { token, used: false });
      tokens.set(token, { wabaId, messaging });
      return { code, token };
    },
    subscribed: (wabaId) => subscriptions.has(wabaId),
    registered: (phoneNumberId) => registrations.get(phoneNumberId),
    revoke: (token) => void revoked.add(token),
    closeWindow: (waId) => void closed.add(waId),
    hostFile(name) {
      files.add(name);
      return `${base}/files/${encodeURIComponent(name)}`;
    },
    addMedia(bytes, mimeType) {
      const id = String(900000000000 + next++);
      media.set(id, { bytes, mimeType });
      return id;
    },
    failNext: (route, times, error) => void failures.set(route, { times, error }),
    postChange,
    async customerWrites(wabaId, phoneNumberId, from, message, wamid = newWamid()) {
      const status = await postChange(wabaId, 'messages', {
        messaging_product: 'whatsapp',
        metadata: metadataOf(phoneNumberId),
        contacts: [{ profile: { name: from.name }, wa_id: from.waId }],
        messages: [{ from: from.waId, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), ...withMediaUrl(message) }],
      });
      return { status, wamid };
    },
    status: (wabaId, phoneNumberId, wamid, status, extra = {}, options = {}) =>
      postChange(
        wabaId,
        'messages',
        {
          messaging_product: 'whatsapp',
          metadata: metadataOf(phoneNumberId),
          statuses: [{ id: wamid, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: sent.get(wamid)?.waId ?? '', ...extra }],
        },
        options,
      ),
    schema,
    async close() {
      await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
      schema.assertNone();
    },
  };

  type Answer = { status: number; body: unknown; headers?: Record<string, string>; raw?: Buffer; type?: string };

  function answer(call: WhatsAppCall, proof: string | undefined): Answer {
    const { token, method, path, query, body } = call;
    const failing = failures.get(`${method} ${path}`);
    if (failing && failing.times > 0) {
      failing.times--;
      const e = failing.error;
      return err(e.status ?? 400, e.code, e.message, e.subcode, e.headers);
    }
    if (method === 'GET' && path === '/oauth/access_token') {
      if (query.client_id !== appId || query.client_secret !== appSecret) return err(400, 1, 'Error validating client secret.');
      const issued = codes.get(query.code ?? '');
      if (!issued) return err(400, 100, 'Invalid verification code format.');
      if (issued.used) return err(400, 100, 'This authorization code has been used.', 36009);
      if (!query.redirect_uri?.endsWith('/hooks/wapi/authorized')) return err(400, 100, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', 36008);
      issued.used = true;
      return { status: 200, body: { access_token: issued.token, token_type: 'bearer' } };
    }
    if (method === 'GET' && path === '/debug_token') {
      if (token !== `${appId}|${appSecret}`) return err(400, 190, 'Invalid OAuth access token.');
      const granted = tokens.get(query.input_token ?? '');
      if (!granted) return { status: 200, body: { data: { is_valid: false } } };
      const scopes = [{ scope: 'whatsapp_business_management', target_ids: [granted.wabaId] }, ...(granted.messaging ? [{ scope: 'whatsapp_business_messaging', target_ids: [granted.wabaId] }] : [])];
      return { status: 200, body: { data: { app_id: appId, type: 'SYSTEM_USER', is_valid: true, scopes: scopes.map((s) => s.scope), granular_scopes: scopes } } };
    }
    const granted = tokens.get(token);
    if (!granted || revoked.has(token)) return err(401, 190, 'Error validating access token: The session has been invalidated.', 460);
    if (proof !== proofOf(token)) return err(400, 100, 'Invalid appsecret_proof provided in the API argument');
    const segments = path.split('/').filter(Boolean);
    const [first, edge] = segments as [string, string | undefined];
    const account = accounts.get(first);
    if (account && first !== granted.wabaId) return err(403, 200, 'Permissions error');
    if (account && edge === 'phone_numbers' && method === 'GET') {
      // As Graph: the fields the call names (and the id), or all of them.
      const fields = query.fields?.split(',');
      const numbers = account.numbers.map((n): Record<string, unknown> => ({ status: 'CONNECTED', ...n }));
      return { status: 200, body: { data: fields ? numbers.map((n) => Object.fromEntries(Object.entries(n).filter(([k]) => k === 'id' || fields.includes(k)))) : numbers } };
    }
    if (account && edge === 'subscribed_apps') {
      if (method === 'POST') subscriptions.add(first);
      if (method === 'DELETE') subscriptions.delete(first);
      return { status: 200, body: { success: true } };
    }
    const templateAnswer = templateCalls(accounts, granted.wabaId, call, () => String(700000000000 + next++), base);
    if (templateAnswer) return templateAnswer;
    const numberAccount = accountOfNumber(first);
    if (numberAccount && numberAccount !== granted.wabaId) return err(403, 200, 'Permissions error');
    if (numberAccount && edge === 'register' && method === 'POST') {
      registrations.set(first, String(body.pin));
      return { status: 200, body: { success: true } };
    }
    if (numberAccount && edge === 'messages' && method === 'POST') return send(first, body);
    if (numberAccount && edge === 'media' && method === 'POST') return upload(first, call);
    if (media.has(first) && method === 'GET' && segments.length === 1) {
      const found = media.get(first)!;
      // As Meta answers: the file's SHA-256 and its size, as text.
      return { status: 200, body: { messaging_product: 'whatsapp', url: `${base}/media/${first}?ext=1`, mime_type: found.mimeType, sha256: sha256Of(found.bytes), file_size: String(found.bytes.length), id: first } };
    }
    return err(400, 100, `Unsupported ${method} request`);
  }

  /**
   * An upload of media as Meta documents it ("Upload Media"): a form with `messaging_product: whatsapp`, the file's
   * `type` and the `file`, answered with its `id`. Audio is taken as AAC, AMR, MP3, M4A, or Ogg with Opus only: an
   * Ogg is told by its pages (`OggS`) and its first packet (`OpusHead`).
   */
  function upload(phoneNumberId: string, call: WhatsAppCall): Answer {
    const file = call.files?.file;
    if (call.body.messaging_product !== 'whatsapp') return err(400, 100, '(#100) The parameter messaging_product is required.');
    if (!file || typeof call.body.type !== 'string') return err(400, 100, '(#100) The parameter file is required.');
    const opus = file.bytes.subarray(0, 4).toString('latin1') === 'OggS' && file.bytes.subarray(28, 36).toString('latin1') === 'OpusHead';
    if (call.body.type === 'audio/ogg' && !opus) return err(400, 131053, '(#131053) Media upload error');
    const id = String(900000000000 + next++);
    uploads.set(id, { phoneNumberId, bytes: file.bytes, mimeType: call.body.type, name: file.name });
    return { status: 200, body: { id } };
  }

  function send(phoneNumberId: string, body: Record<string, unknown>): Answer {
    const to = String(body.to ?? '');
    if (body.messaging_product !== 'whatsapp') return err(400, 100, '(#100) The parameter messaging_product is required.');
    if (!/^\d{7,15}$/.test(to)) return err(400, 131009, '(#131009) Parameter value is not valid');
    const waId = waIdOf(to);
    if (closed.has(waId) && body.type !== 'template') return err(400, 131047, 'Re-engagement message', undefined);
    const uploaded = (body[String(body.type)] as { id?: string } | undefined)?.id;
    if (uploaded !== undefined && uploads.get(uploaded)?.phoneNumberId !== phoneNumberId) return err(400, 131053, '(#131053) Media upload error');
    const link = (body[String(body.type)] as { link?: string } | undefined)?.link;
    if (link !== undefined) {
      const { pathname } = new URL(link);
      if (!pathname.startsWith('/files/') || !files.has(decodeURIComponent(pathname.slice('/files/'.length)))) return err(400, 131053, '(#131053) Media upload error');
    }
    const wamid = newWamid();
    sent.set(wamid, { phoneNumberId, body, waId });
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: waId }], messages: [{ id: wamid }] } };
  }

  /** Meta's media downloads (`/media/<id>`), beside the Graph API. */
  const serveMedia = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (!url.pathname.startsWith('/media/')) return false;
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const found = media.get(url.pathname.slice('/media/'.length));
    if (!found) res.writeHead(404).end();
    // Meta's media URLs answer only with the business token that asked for them.
    else if (!tokens.has(token) || revoked.has(token)) res.writeHead(401).end();
    // Media servers answer a byte range as CDNs do.
    else serveFile(req, res, { content: found.bytes, contentType: found.mimeType }, false);
    return true;
  };
  /** Each call answered, the send and the answer checked as they pass. */
  function checkedAnswer(call: WhatsAppCall, proof: string | undefined): Answer {
    const route = wapiRouteOf(call.method, call.path, (id) => media.has(id));
    if (route === 'messages') schema.check(`request POST ${call.path}`, wapiSend(call.body), call.body);
    const result = answer(call, proof);
    schema.check(`answer ${call.method} ${call.path} ${result.status}`, wapiAnswer(route, result.status), result.body);
    return result;
  }
  const { server, url } = await serveGraphCalls(calls, checkedAnswer, serveMedia);
  base = url;
  emulator.url = base;
  return emulator;
}
