import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer as bodyBytes } from 'node:stream/consumers';
import { request } from 'undici';
import { serveFile } from './file-server.ts';
import { sentAttachments, type SavedDoc } from './vk-emulator-attachments.ts';
import { vkAuthority } from './vk-emulator-auth.ts';
import { warmVk } from './schema-check/warm.ts';
import { schemaChecks } from './schema-check/schema-checks.ts';
import { vkAnswer, vkEvent, vkFormParams, vkRequest } from './schema-check/vk-schema.ts';

/**
 * A local stand-in for VK (dev.vk.com) for the live vk driver's tests, over real HTTP both ways: the OAuth server
 * (vk-emulator-auth.ts), the API methods the driver calls (form-encoded POSTs to `/method/<name>`, answering
 * `{response}` or `{error: {error_code, error_msg}}`), the upload servers of photos and documents, and the Callback
 * API: a server added or edited is sent `confirmation` at once (before the method answers) and is `ok` only if it
 * answers the community's code; events go to confirmed servers only, each with the server's `secret`, and are posted
 * again (up to 5 times) until answered `ok`. Each send is reported back as `message_reply` (its words and its files), after
 * its answer.
 */

export interface VkCommunity {
  id: number;
  name: string;
  screen_name: string;
  /** The users who administer it. */
  admins: number[];
}

export interface VkCall {
  method: string;
  params: Record<string, string>;
}

interface CallbackServer {
  id: number;
  url: string;
  title: string;
  secret_key: string;
  status: 'unconfigured' | 'ok' | 'failed';
  events: Record<string, string>;
}

export interface SentMessage {
  id: number;
  peer_id: number;
  text: string;
  attachment: string | null;
  reply_to: number | null;
  random_id: number;
}

type Answer = { status: number; body: unknown };
/** The API version the driver asks for, and VK's events carry. */
const VERSION = '5.199';
const isAnswer = (body: unknown) => typeof body === 'object' && body !== null && 'response' in body;
const response = (body: unknown): Answer => ({ status: 200, body: { response: body } });
const error = (code: number, message: string): Answer => ({ status: 200, body: { error: { error_code: code, error_msg: message } } });

export async function startVkEmulator(app: { appId: string; appSecret: string }) {
  const communities = new Map<number, VkCommunity>();
  const users = new Map<number, { first_name: string; last_name: string }>();
  const servers = new Map<number, CallbackServer[]>();
  const messagesOn = new Set<number>();
  const sent = new Map<number, SentMessage[]>();
  const denied = new Set<string>();
  const failures = new Map<string, { code: number; times: number }>();
  const files = new Map<string, { content: Buffer; contentType: string }>();
  const uploads: { kind: string; name: string; size: number }[] = [];
  /** The documents saved for dialogs, by id: a send's echo carries them. */
  const savedDocs = new Map<number, SavedDoc>();
  const calls: VkCall[] = [];
  const posting = new Set<Promise<unknown>>();
  const echoAnswers: number[] = [];
  let echoWhen: 'before' | 'after' = 'after';
  let lose = false;
  let unconfirmed = 0;
  let next = 100;
  let base = '';
  /** The calls, answers and events checked against vk-io's types of VK's API (schemas/vk.json); `close()` throws the mismatches. */
  const schema = schemaChecks('VK');
  warmVk();
  const auth = vkAuthority(app, (userId) => [...communities.values()].filter((c) => c.admins.includes(userId)).map((c) => c.id));

  /** Posts a body to a server; its status and answer. */
  async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
    const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.statusCode, text: await res.body.text() };
  }

  async function confirm(groupId: number, server: CallbackServer): Promise<void> {
    if (unconfirmed > 0) {
      unconfirmed--;
      return;
    }
    const confirmation = { type: 'confirmation', group_id: groupId, event_id: `ev${next++}`, v: VERSION, secret: server.secret_key };
    schema.check('event confirmation', vkEvent('confirmation'), confirmation);
    const answered = await post(server.url, confirmation).catch(() => ({ status: 0, text: '' }));
    server.status = answered.status === 200 && answered.text === codeOf(groupId) ? 'ok' : 'failed';
  }

  /** An event to the community's confirmed servers that take it, posted again until `ok` (5 tries); the answers of the last. */
  async function emit(groupId: number, type: string, object: unknown): Promise<{ status: number; text: string }[]> {
    const answers: { status: number; text: string }[] = [];
    for (const server of (servers.get(groupId) ?? []).filter((s) => s.status === 'ok' && s.events[type] === '1')) {
      const body = { type, object, group_id: groupId, event_id: `ev${next++}`, v: VERSION, secret: server.secret_key };
      schema.check(`event ${type}`, vkEvent(type), body);
      let answered = { status: 0, text: '' };
      for (let tries = 0; tries < 5; tries++) {
        answered = await post(server.url, body).catch(() => ({ status: 0, text: '' }));
        if (answered.status === 200 && answered.text === 'ok') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      answers.push(answered);
    }
    return answers;
  }

  const track = (work: Promise<unknown>) => {
    posting.add(work);
    void work.finally(() => posting.delete(work));
  };
  const codeOf = (groupId: number) => `c0de${groupId}`;
  const now = () => Math.floor(Date.now() / 1000);
  /** Each conversation's messages are numbered in it (`conversation_message_id`), as VK numbers them. */
  const inConversation = new Map<number, number>();
  /** A message as VK's events carry it (messages_message): its number in the conversation, when, which way, its version. */
  const messageObject = (fields: { id: number; peer_id: number; from_id: number; text: string; out: 0 | 1 } & Record<string, unknown>) => {
    const number = (inConversation.get(fields.peer_id) ?? 0) + 1;
    inConversation.set(fields.peer_id, number);
    return { conversation_message_id: number, date: now(), version: 1, attachments: [], ...fields };
  };

  async function send(groupId: number, p: Record<string, string>): Promise<Answer> {
    const peer = Number(p.peer_id);
    const randomId = Number(p.random_id);
    if (!Number.isInteger(peer)) return error(100, 'One of the parameters specified was missing or invalid: peer_id');
    // VK takes a random_id within int64 (its documentation asks for a large range, "up to int64").
    if (!/^-?\d{1,19}$/.test(p.random_id ?? '') || BigInt.asIntN(64, BigInt(p.random_id!)) !== BigInt(p.random_id!)) return error(100, 'One of the parameters specified was missing or invalid: random_id');
    if (denied.has(`${groupId}:${peer}`)) return error(901, 'Can\'t send messages for users without permission');
    if ([...(p.message ?? '')].length > 4096) return error(914, 'Message is too long');
    const list = sent.get(groupId) ?? [];
    const before = list.find((m) => m.random_id === randomId && m.peer_id === peer);
    if (before) return response(before.id);
    const message: SentMessage = { id: next++, peer_id: peer, text: p.message ?? '', attachment: p.attachment ?? null, reply_to: p.reply_to ? Number(p.reply_to) : null, random_id: randomId };
    sent.set(groupId, [...list, message]);
    // VK's copy of the send carries what it was sent with: its words and its file alike.
    const attachments = sentAttachments(message.attachment, base, savedDocs, now());
    const echo = () => emit(groupId, 'message_reply', messageObject({ id: message.id, peer_id: peer, from_id: -groupId, out: 1, text: message.text, attachments })).then((a) => void echoAnswers.push(...a.map((x) => x.status)));
    if (echoWhen === 'before') await echo();
    else track(echo());
    return response(message.id);
  }

  async function method(name: string, p: Record<string, string>): Promise<Answer> {
    const failing = failures.get(name);
    if (failing && failing.times > 0) {
      failing.times--;
      return error(failing.code, `failing as the test asked (${failing.code})`);
    }
    const holder = auth.holder(p.access_token ?? '');
    if (!holder) return error(5, 'User authorization failed: invalid access_token (4).');
    if (holder.kind === 'user') {
      if (name !== 'groups.get' || p.filter !== 'admin') return error(15, 'Access denied');
      const items = [...communities.values()].filter((c) => c.admins.includes(holder.userId)).map(({ id, name: n, screen_name }) => ({ id, name: n, screen_name }));
      return response({ count: items.length, items });
    }
    const groupId = holder.groupId;
    if (p.group_id !== undefined && Number(p.group_id) !== groupId) return error(15, 'Access denied: no access to this group');
    const mine = servers.get(groupId) ?? [];
    const server = mine.find((s) => s.id === Number(p.server_id));
    switch (name) {
      case 'groups.getById': {
        const { id, name: n, screen_name } = communities.get(groupId)!;
        return response({ groups: [{ id, name: n, screen_name }], profiles: [] });
      }
      case 'groups.getCallbackConfirmationCode':
        return response({ code: codeOf(groupId) });
      case 'groups.setSettings':
        if (p.messages === '1') messagesOn.add(groupId);
        return response(1);
      case 'groups.getCallbackServers':
        return response({ count: mine.length, items: mine.map(({ id, url, title, secret_key, status }) => ({ id, url, title, secret_key, status, creator_id: 1 })) });
      case 'groups.addCallbackServer': {
        if (mine.length >= 10) return error(2000, 'Servers number limit is reached');
        const added: CallbackServer = { id: next++, url: p.url!, title: p.title ?? '', secret_key: p.secret_key ?? '', status: 'unconfigured', events: {} };
        servers.set(groupId, [...mine, added]);
        await confirm(groupId, added);
        return response({ server_id: added.id });
      }
      case 'groups.editCallbackServer':
        if (!server) return error(100, 'One of the parameters specified was missing or invalid: server_id');
        Object.assign(server, { url: p.url, title: p.title ?? server.title, secret_key: p.secret_key ?? server.secret_key });
        await confirm(groupId, server);
        return response(1);
      case 'groups.deleteCallbackServer':
        if (!server) return error(100, 'One of the parameters specified was missing or invalid: server_id');
        servers.set(groupId, mine.filter((s) => s !== server));
        return response(1);
      case 'groups.setCallbackSettings':
        if (!server) return error(100, 'One of the parameters specified was missing or invalid: server_id');
        for (const [key, value] of Object.entries(p)) if (/^message_|^wall_/.test(key)) server.events[key] = value;
        return response(1);
      case 'users.get':
        return response(
          (p.user_ids ?? '').split(',').flatMap((id) => (users.has(Number(id)) ? [{ id: Number(id), ...users.get(Number(id))!, can_access_closed: true, is_closed: false }] : [])),
        );
      case 'messages.send': {
        if (!messagesOn.has(groupId)) return error(7, 'Permission to perform this action is denied: messages are off');
        const answer = await send(groupId, p);
        if (!lose) return answer;
        lose = false;
        return error(10, 'Internal server error: the answer was lost');
      }
      case 'photos.getMessagesUploadServer':
        return response({ upload_url: `${base}/upload/photo?group=${groupId}`, album_id: -14, user_id: 0, group_id: groupId });
      case 'docs.getMessagesUploadServer':
        return response({ upload_url: `${base}/upload/doc?group=${groupId}` });
      case 'photos.saveMessagesPhoto': {
        const id = Number(p.photo?.replace(/\D/g, ''));
        return p.hash === 'h' ? response([{ id, album_id: -14, owner_id: -groupId, date: now(), has_tags: false, access_key: 'ak1' }]) : error(100, 'invalid hash');
      }
      case 'docs.save': {
        const doc = { id: Number(p.file?.replace(/\D/g, '')), title: p.title ?? '', size: uploads.at(-1)?.size ?? 0, ext: p.title?.split('.').at(-1) ?? '' };
        savedDocs.set(doc.id, doc);
        return response({ type: 'doc', doc: { ...doc, owner_id: -groupId, date: now(), type: 8 } });
      }
      default:
        return error(3, 'Unknown method passed');
    }
  }

  /** An upload: its file's name and size read off the multipart body, crudely but enough here. */
  function upload(kind: string, raw: Buffer): Answer {
    const text = raw.toString('latin1');
    const name = /filename="([^"]*)"/.exec(text)?.[1] ?? '';
    const start = text.indexOf('\r\n\r\n') + 4;
    const end = text.lastIndexOf('\r\n--');
    uploads.push({ kind, name, size: Math.max(0, end - start) });
    const id = next++;
    return { status: 200, body: kind === 'photo' ? { server: 1, photo: `[{"photo":"p${id}"}]`, hash: 'h' } : { file: `f${id}` } };
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (req.method === 'GET' && url.pathname.startsWith('/files/')) {
      const file = files.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
      return file ? serveFile(req, res, file, false) : void res.writeHead(404).end();
    }
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const went = auth.authorize(url.searchParams);
      return void res.writeHead(went.status, went.location ? { location: went.location } : { 'content-type': 'text/plain' }).end(went.text ?? '');
    }
    if (req.method === 'GET' && url.pathname === '/access_token') {
      const exchanged = auth.exchange(url.searchParams);
      return void res.writeHead(exchanged.status, { 'content-type': 'application/json' }).end(JSON.stringify(exchanged.body));
    }
    void bodyBytes(req)
      .then(async (raw) => {
        let answer: Answer;
        if (url.pathname.startsWith('/upload/')) answer = upload(url.pathname.slice('/upload/'.length), raw);
        else if (url.pathname.startsWith('/method/')) {
          const params = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
          const name = url.pathname.slice('/method/'.length);
          calls.push({ method: name, params: Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'access_token')) });
          answer = await method(name, params);
          schema.check(`request ${name}`, vkRequest(name), vkFormParams(name, params));
          if (isAnswer(answer.body)) schema.check(`answer ${name}`, vkAnswer(name), answer.body);
        } else answer = { status: 404, body: {} };
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    calls,
    uploads,
    addCommunity: (community: VkCommunity) => void communities.set(community.id, community),
    addUser: (id: number, first_name: string, last_name: string) => void users.set(id, { first_name, last_name }),
    loginAs: auth.loginAs,
    declineNext: auth.declineNext,
    revoke: auth.revoke,
    serversOf: (groupId: number) => (servers.get(groupId) ?? []).map((s) => ({ ...s })),
    messagesOn: (groupId: number) => messagesOn.has(groupId),
    sentTo: (groupId: number) => [...(sent.get(groupId) ?? [])],
    /** VK's report of each send (`message_reply`) comes after its answer (the default), or before it. */
    echoSends: (when: 'before' | 'after') => void (echoWhen = when),
    /** How the gateway answered each report of a send, in order (each posted again until `ok`). */
    echoAnswers,
    /** The next servers added or edited are not sent VK's confirmation (it went astray): they stay `unconfigured`. */
    skipConfirmations: (times = 1) => void (unconfirmed = times),
    /** The next send is made, but its answer lost (VK answers 10, as a failure on its side). */
    loseNextSendAnswer: () => void (lose = true),
    /** Makes the next `times` calls of a method fail with VK's error `code`. */
    failNext: (name: string, code: number, times = 1) => void failures.set(name, { code, times }),
    /** A customer writes to the community: `message_new`; the answers of each server. */
    customerWrites(groupId: number, message: { id?: number; from: number; text?: string; attachments?: unknown[]; replyTo?: number }) {
      const id = message.id ?? next++;
      const object = messageObject({ id, peer_id: message.from, from_id: message.from, out: 0, text: message.text ?? '', attachments: message.attachments ?? [], ...(message.replyTo ? { reply_message: { id: message.replyTo } } : {}) });
      return emit(groupId, 'message_new', { message: object, client_info: { button_actions: ['text'], keyboard: true, inline_keyboard: true, carousel: true, lang_id: 0 } }).then((answers) => ({ id, answers }));
    },
    /** A community admin writes in VK's own pages: `message_reply`. */
    adminWrites: (groupId: number, peer: number, text: string) => {
      const id = next++;
      return emit(groupId, 'message_reply', messageObject({ id, peer_id: peer, from_id: -groupId, out: 1, text, admin_author_id: 1 })).then((answers) => ({ id, answers }));
    },
    edits: (groupId: number, peer: number, id: number, text: string) => emit(groupId, 'message_edit', messageObject({ id, peer_id: peer, from_id: peer, out: 0, text })),
    /** The user forbids the community's messages: `message_deny`, and VK refuses sends to them with 901. */
    deny(groupId: number, userId: number) {
      denied.add(`${groupId}:${userId}`);
      return emit(groupId, 'message_deny', { user_id: userId });
    },
    post,
    async settle() {
      while (posting.size > 0) await Promise.all([...posting]);
    },
    hostFile(name: string, content: Buffer, contentType: string) {
      files.set(name, { content, contentType });
      return `${base}/files/${encodeURIComponent(name)}`;
    },
    schema,
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      schema.assertNone();
    },
  };
}

export type VkEmulator = Awaited<ReturnType<typeof startVkEmulator>>;
