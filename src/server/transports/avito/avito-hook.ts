import type { Attachment } from '../../../contract/messages.ts';
import type { ArrivingMessage } from '../../core/messages/inbound.ts';
import { platformReports } from '../../core/messages/platform-reports.ts';
import type { MessageDeps, MessengerHook } from '../../core/messages/ports.ts';
import { sameSecret, typeByName } from '../bot-common.ts';

/**
 * What Avito posts to a channel's hook (`POST /messenger/v3/webhook`, version 3 of its notifications):
 * `{id, version, timestamp, payload: {type: "message", value: WebhookMessage}}`, the message's `user_id` being the
 * account the hook was registered for and `author_id` whoever wrote it (developers.avito.ru, "Мессенджер").
 */
interface WebhookMessage {
  id?: unknown;
  chat_id?: unknown;
  chat_type?: unknown;
  user_id?: unknown;
  author_id?: unknown;
  type?: unknown;
  content?: unknown;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const isId = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x > 0;
const isName = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 256;

/** Types told by an image address's extension (Avito's are `.jpg`). */
const imageTypes: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
  ['bmp', 'image/bmp'],
  ['heic', 'image/heic'],
]);

const MAX_URL = 2048;

/**
 * An image message's picture: the largest of the sizes Avito gives (`{"1280x960": url, "140x105": url…}`). Avito's
 * image addresses (`img.k.avito.ru/chat/…`) are public and hold no token, so they are handed on as they are.
 */
export function imageOf(content: unknown): Attachment | null {
  const sizes = isObject(content) && isObject(content.image) && isObject(content.image.sizes) ? content.image.sizes : null;
  if (!sizes) return null;
  const best = Object.entries(sizes)
    .map(([size, url]) => ({ area: (size.split('x').map(Number) as number[]).reduce((a, b) => a * b, 1), url }))
    .filter((x): x is { area: number; url: string } => Number.isFinite(x.area) && typeof x.url === 'string' && x.url.length <= MAX_URL && /^https?:\/\//i.test(x.url))
    .sort((a, b) => b.area - a.area)[0];
  if (!best) return null;
  let type: string | undefined;
  try {
    type = typeByName(new URL(best.url).pathname, imageTypes);
  } catch {
    return null;
  }
  return { url: best.url, ...(type ? { mimetype: type } : {}) };
}

/** A text message's words, or a link message's (Avito makes a message that is a link a `link`, its words in `link.text`). */
function wordsOf(type: unknown, content: unknown): string | null {
  if (!isObject(content)) return null;
  if (type === 'text') return typeof content.text === 'string' && content.text.length > 0 ? content.text : null;
  if (type === 'link' && isObject(content.link)) {
    const { text, url } = content.link;
    return typeof text === 'string' && text.length > 0 ? text : typeof url === 'string' && url.length > 0 ? url : null;
  }
  return null;
}

/** A message Avito reported for an account, as the gateway records it. */
export interface AvitoReport {
  /** The account the hook was registered for (Avito's user id). */
  account: string;
  arriving: ArrivingMessage;
}

/**
 * A notification as the gateway records it: a customer's message is inbound, one written by the account itself
 * (`author_id` is the account: in Avito's app, or a send of the gateway's, which Avito reports too) outbound, in
 * the `avito` chat named by Avito's chat id. Words (a text, a link) and pictures are recorded; system messages
 * (Avito's own, its bots'), ads' cards, calls, locations, voice notes, files, videos and deleted messages, which
 * the interface's message cannot carry, are not (null). Avito gives no name of the author in a notification.
 */
export function reportOf(update: unknown): AvitoReport | null {
  // The shape is checked as far as it is read: whatever else is posted here is taken and dropped, not a 500.
  if (!isObject(update) || !isObject(update.payload) || update.payload.type !== 'message') return null;
  const m = update.payload.value as WebhookMessage;
  if (!isObject(m) || !isName(m.id) || !isName(m.chat_id) || !isId(m.user_id) || !isId(m.author_id)) return null;
  const text = wordsOf(m.type, m.content);
  const attachment = m.type === 'image' ? imageOf(m.content) : null;
  if (text === null && attachment === null) return null;
  const own = m.author_id === m.user_id;
  return {
    account: String(m.user_id),
    arriving: {
      chatType: 'avito',
      chatId: m.chat_id,
      username: null,
      phone: null,
      name: null,
      text,
      attachment,
      direction: own ? 'outbound' : 'inbound',
      messengerMessageId: m.id,
      ...(own ? { echo: true } : {}),
    },
  };
}

/**
 * Notifications Avito posts to `/hooks/avito/<channel id>?secret=…`. Avito signs nothing it posts and takes no
 * secret of its own, so the address it was given carries the channel's secret, checked before anything is read. A
 * message is answered 200 only once it is recorded (Avito's documentation asks for a 200 within 2 seconds; a message
 * posted again finds the message it made). A channel not stored yet (its subscription is made just before it is)
 * answers 503, as a send of Avito's that did not arrive. A channel switched off answers 200 and the message is
 * dropped, as MAX's are: whether and for how long Avito tries a failing notification again is not documented, and a
 * hook failing for days may lose the subscription; the channel's messages are not kept while it is off. A message for
 * an account the channel no longer is (a subscription left from before a reinit) is taken and dropped.
 */
export function avitoUpdateHook(deps: { messages: MessageDeps; hookSecret(channelId: string): string }): MessengerHook {
  return async ({ channelId, query, body }) => {
    // The secret comes from the channel's id and the gateway's key alone: a forged call is turned away before the database.
    if (!sameSecret(query?.secret, deps.hookSecret(channelId))) return 'unauthorized';
    const report = reportOf(body);
    if (!report) return 'ignored';
    const channel = await deps.messages.store.channels.getById(channelId);
    if (!channel) return 'unavailable';
    if (channel.messengerId !== report.account) return 'ignored';
    const outcome = await platformReports(deps.messages, channelId, [{ kind: 'message', message: report.arriving }]);
    return outcome === 'recorded' ? 'accepted' : outcome === 'switched_off' ? 'ignored' : 'unavailable';
  };
}
