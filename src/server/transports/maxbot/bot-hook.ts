import type { Attachment } from '../../../contract/messages.ts';
import { platformReported, type ArrivingMessage, type PlatformOutcome } from '../../core/messages/inbound.ts';
import { platformEdited, type ReportedEdit } from '../../core/messages/platform-changes.ts';
import type { MessageDeps, MessengerHook } from '../../core/messages/ports.ts';
import { pressedText, sameSecret } from '../bot-common.ts';
import type { MaxCallback, MaxMessage, MaxMessageBody, MaxUpdate, MaxUser } from './bot-api.ts';
import type { PressAnswerer } from './bot-answers.ts';
import { attachmentOf, type VideoLink } from './bot-files.ts';
import { captionNumberOf } from '../../core/messages/caption-number.ts';

const SECRET_HEADER = 'x-max-bot-api-secret';

const isId = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
const isMid = (x: unknown): x is string => typeof x === 'string' && x.length > 0;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

const personOf = (user: MaxUser): string | null =>
  [user.first_name, user.last_name].filter((s) => typeof s === 'string' && s.length > 0).join(' ') || (typeof user.name === 'string' && user.name ? user.name : null);

type Chat = Pick<ArrivingMessage, 'chatType' | 'chatId' | 'username' | 'name'>;

/** A person's user id, unless it is a bot's (or not a user at all). */
const isPerson = (user: MaxUser | null | undefined): user is MaxUser => isObject(user) && isId(user.user_id) && user.is_bot !== true;

/**
 * Where a message is, for what `person` does in it: a dialog with the bot is the person's `max` chat (named by
 * their user id, by which bots write to them), a group chat the bot is in a `maxgroup` chat named by its chat id.
 * Channels are not read.
 */
function chatOf(recipient: MaxMessage['recipient'] | undefined, person: MaxUser): Chat | null {
  if (!isObject(recipient)) return null;
  if (recipient.chat_type === 'dialog') {
    return { chatType: 'max', chatId: String(person.user_id), username: typeof person.username === 'string' && person.username ? person.username : null, name: personOf(person) };
  }
  if (recipient.chat_type === 'chat' && isId(recipient.chat_id)) return { chatType: 'maxgroup', chatId: String(recipient.chat_id), username: null, name: null };
  return null;
}

/** The suffix such words had before (kept in stores since): their edits, and the same message posted again, still find them. */
const EARLIER_CAPTION = ':text';

/** MAX's number of a message (`mid`): the parts of one message recorded apart (`<mid>:caption`, `<mid>:2`) are the same message there. */
export const maxMessageId = (messengerMessageId: string): string => messengerMessageId.split(':')[0]!;

/** What a message body holds that the gateway records: its files (a video by the gateway's link, given `videoLink`), and its words. */
function contentOf(body: MaxMessageBody | null | undefined, videoLink?: VideoLink): { files: Attachment[]; words: string | null } {
  if (typeof body !== 'object' || body === null) return { files: [], words: null };
  const files = (Array.isArray(body.attachments) ? body.attachments : []).flatMap((a) => {
    const attachment = typeof a === 'object' && a !== null && typeof a.type === 'string' ? attachmentOf(a, videoLink) : null;
    return attachment ? [attachment] : [];
  });
  return { files, words: typeof body.text === 'string' && body.text.length > 0 ? body.text : null };
}

/**
 * A body's files and words as messages numbered from `id`: each file (`id`, `id:1`…), then the words (`id:caption`, or
 * `id` alone): the caption of the file before them, as the other drivers record a caption, so that the chat frame
 * draws a file with its words as one message.
 */
function partsOf(content: { files: Attachment[]; words: string | null }, id: string, first: boolean) {
  const fileId = (i: number) => (first ? (i === 0 ? id : `${id}:${i}`) : `${id}:${i}`);
  return [
    ...content.files.map((attachment, i) => ({ text: null, attachment, messengerMessageId: fileId(i) })),
    ...(content.words === null
      ? []
      : first && content.files.length === 0
        ? [{ text: content.words, attachment: null, messengerMessageId: id }]
        : [{ text: content.words, attachment: null, messengerMessageId: captionNumberOf(id), earlierNumbers: [`${id}${EARLIER_CAPTION}`] }]),
  ];
}

/**
 * The messages of a MAX message as the gateway records them. A customer's dialog with the bot is a `max` chat
 * named by the customer's user id (bots send to a user by it, and it is the same in every dialog with them); a
 * group chat the bot is in is a `maxgroup` chat named by its chat id. MAX messages carry text and files together,
 * the interface's carry one of them: each file is a message of its own (`<mid>`, then `<mid>:1`, `<mid>:2`…) and
 * the words another (`<mid>:caption`), in that order. A reply (`link.type` `reply`) quotes the message it answers.
 * A forward records the forwarded message's files and words: after the message's own (numbered `<mid>:fwd:0`…,
 * `<mid>:fwd:caption`), or as the message's own where it says nothing itself (its body empty, or null: then it is
 * numbered by the forwarded message's mid and the time it was forwarded). Other bots, channel posts and messages
 * with neither words nor a file (a sticker, a contact) are not recorded. A video is the gateway's link to it, made
 * by `videoLink` (MAX's own address for it is no direct link); without one, MAX's address.
 */
export function arrivingOf(message: MaxMessage | null | undefined, videoLink?: VideoLink): ArrivingMessage[] {
  // The shape is checked as far as it is read: whatever else is posted here is taken and dropped, not a 500.
  if (!isObject(message) || !isPerson(message.sender)) return [];
  const chat = chatOf(message.recipient, message.sender);
  if (!chat) return [];
  const link = isObject(message.link) ? message.link : null;
  const linked = link && isObject(link.message) ? link.message : null;
  const own = contentOf(message.body, videoLink);
  const forwarded = link?.type === 'forward' ? contentOf(linked, videoLink) : { files: [], words: null };
  const ownMid = isMid(message.body?.mid) ? message.body.mid : null;
  const id = ownMid ?? (link?.type === 'forward' && isMid(linked?.mid) && isId(message.timestamp) ? `${linked.mid}:fwd${message.timestamp}` : null);
  if (id === null) return [];
  const saysItself = own.files.length > 0 || own.words !== null;
  const parts = saysItself ? [...partsOf(own, id, true), ...partsOf(forwarded, `${id}:fwd`, false)] : partsOf(forwarded, id, true);
  const quoted = link?.type === 'reply' && isMid(linked?.mid) ? { quotedMessengerId: linked.mid } : {};
  return parts.map((part) => ({ ...chat, direction: 'inbound' as const, phone: null, ...part, ...quoted }));
}

/**
 * A customer's edit (`message_edited`: the message as it is now, by the same mid) as a change of the words the
 * gateway recorded of it. The words are `<mid>` in a message without files and `<mid>:caption` in one with them
 * (`<mid>:text` in one recorded before captions were named so, which the edit names too); the edit names them all, since files may have been added or removed, and core changes only the one recorded with
 * words (a file's message keeps its kind). Words taken away from a message that keeps its files leave those words
 * empty (`""`), so that words given again are one more edit of them; words given to a message of files alone arrive
 * as its `<mid>:caption` would have with it (`added`). Files are not compared: MAX signs their addresses with an expiry
 * (`fd.oneme.ru/getfile?sig=…&expires=…`), so the same file comes under another address in each update and would
 * look replaced on every edit of the words. A forward's parts are not the customer's to edit. `editedAt` is when
 * MAX says the edit was made (the update's `timestamp`, ms): an edit MAX sends again after a newer one changes nothing.
 */
export function editsOf(message: MaxMessage | null | undefined, editedAt?: unknown): ReportedEdit[] {
  if (!isObject(message) || !isPerson(message.sender) || !isMid(message.body?.mid)) return [];
  const chat = chatOf(message.recipient, message.sender);
  const { files, words } = contentOf(message.body);
  // Neither words nor a file read (a sticker's message): nothing recorded changes.
  if (!chat || (words === null && files.length === 0)) return [];
  const mid = message.body.mid;
  const where = { chatType: chat.chatType, chatId: chat.chatId, ...(isId(editedAt) && editedAt > 0 ? { editedAt: new Date(editedAt) } : {}) };
  const text = words ?? '';
  const arriving = words !== null && files.length > 0 ? arrivingOf(message).find((m) => m.messengerMessageId === captionNumberOf(mid)) : undefined;
  return [
    { ...where, messengerMessageId: mid, text },
    { ...where, messengerMessageId: captionNumberOf(mid), text, ...(arriving ? { added: { partOf: mid, arriving } } : {}) },
    { ...where, messengerMessageId: `${mid}${EARLIER_CAPTION}`, text },
  ];
}

/** What answers a press (`POST /answers`): its id, the chat MAX paces answers in (null when not known), the words shown. */
export interface PressAnswer {
  callbackId: string;
  /** The chat as a send names it (the customer's user id, or the group's chat id); null when MAX does not say (paced per bot alone then). */
  chatId: string | null;
  notification: string;
}

/** The notification of a press whose button is not found: a mark, not the button's payload (the CRM's data, never shown). */
export const PRESSED = '✓';

/** The callback of a press, as far as it is read. */
const callbackOf = (update: Pick<MaxUpdate, 'callback'> | null | undefined): MaxCallback | null =>
  isObject(update) && isObject(update.callback) && isMid(update.callback.callback_id) ? update.callback : null;

/** The button a press names, by its payload, among the rows of the message's inline keyboard: its text, if it has one. */
function buttonTextOf(message: MaxMessage | null, payload: unknown): string | null {
  if (!isMid(payload) || !isObject(message) || !isObject(message.body) || !Array.isArray(message.body.attachments)) return null;
  for (const attachment of message.body.attachments) {
    if (!isObject(attachment) || attachment.type !== 'inline_keyboard' || !isObject(attachment.payload)) continue;
    const text = pressedText(attachment.payload.buttons, payload, 'payload');
    if (text !== null) return text;
  }
  return null;
}

/**
 * A press of a callback button (`message_callback`), as the gateway records it: a text message from the presser
 * in the chat of the message the button is on (a dialog is the presser's `max` chat, a group its `maxgroup`
 * chat) whose words are the pressed button's text (found on the message's inline keyboard by its payload; the
 * payload itself when it is not there), quoting that message, numbered `cb:<callback id>` so that a press MAX
 * sends again is recorded once. A press without a payload, by a bot, in a channel, or on a message since deleted
 * (MAX then sends no message, so the chat is unknown) is not recorded (it is answered all the same: answerOf).
 */
export function pressOf(update: Pick<MaxUpdate, 'callback' | 'message'> | null | undefined): ArrivingMessage | null {
  const callback = callbackOf(update);
  if (!callback || !isPerson(callback.user) || !isMid(callback.payload)) return null;
  const message = isObject(update!.message) ? update!.message : null;
  const chat = message && chatOf(message.recipient, callback.user);
  if (!message || !chat) return null;
  const quoted = isMid(message.body?.mid) ? { quotedMessengerId: message.body.mid } : {};
  const text = buttonTextOf(message, callback.payload) ?? callback.payload;
  return { ...chat, direction: 'inbound', phone: null, text, attachment: null, messengerMessageId: `cb:${callback.callback_id}`, ...quoted };
}

/**
 * What answers a press, whatever becomes of it otherwise (recorded, or dropped as pressOf drops it): the press's
 * id, the dialog or group it is in as a send names it (the presser's user id, or the group's chat id, where the
 * message says which; a channel's, or a press on a message since deleted, has none), and a notification of the
 * pressed button's text, or a mark (PRESSED) when the button is not found. Null without a callback id.
 */
export function answerOf(update: Pick<MaxUpdate, 'callback' | 'message'> | null | undefined): PressAnswer | null {
  const callback = callbackOf(update);
  if (!callback) return null;
  const message = isObject(update!.message) ? update!.message : null;
  const recipient = message && isObject(message.recipient) ? message.recipient : null;
  // The chat as a send names it: a dialog by the customer's user id, a group by its chat id.
  const user = isObject(callback.user) ? callback.user : null;
  const chatId =
    recipient?.chat_type === 'dialog' && isId(user?.user_id) ? String(user.user_id) : recipient?.chat_type === 'chat' && isId(recipient.chat_id) ? String(recipient.chat_id) : null;
  return { callbackId: callback.callback_id, chatId, notification: buttonTextOf(message, callback.payload) ?? PRESSED };
}

/**
 * Updates MAX posts to `/hooks/maxbot/<channel id>`: new messages, customers' edits of theirs, and presses of
 * callback buttons. Each carries the channel's secret (`X-Max-Bot-Api-Secret`), checked before anything is read.
 * MAX posts an update again until it is answered 200, for up to 8 hours, and then gives it up; a bot whose hook
 * keeps failing is unsubscribed (dev.max.ru). So an update is answered only once what it says is recorded,
 * together; a channel not stored yet (its subscription is made just before it is stored) answers 503, for MAX to
 * try again shortly; and a channel switched off answers 200 and drops the update, so that days off do not cost the
 * bot its subscription. While a channel is off its customers' messages are not kept, as with any channel that is
 * off; one that comes in the moment a reinit subscribes again, before the channel is back on, is dropped too. A
 * channel switched back on other than by connect or reinit (which subscribe again) may find its subscription gone
 * if it failed for hours before; a reinit restores it. A deleted channel's subscription was removed; an update
 * still on its way answers 503 and is given up by MAX. A press is answered (`answers`), best effort, in the background.
 * A customer's video is recorded by the gateway's link to it (`videoLink`, for the channel and the video's token).
 */
export function maxUpdateHook(deps: {
  messages: MessageDeps;
  hookSecret(channelId: string): string;
  answers?: PressAnswerer;
  videoLink?(channelId: string, videoToken: string): string;
}): MessengerHook {
  /** Not recorded: the channel is not stored yet (try again), or it is switched off (drop it, answered). */
  const settled = (outcome: PlatformOutcome) =>
    outcome === 'recorded' ? ('accepted' as const) : outcome === 'switched_off' ? ('ignored' as const) : ('unavailable' as const);
  return async ({ channelId, headers, body }) => {
    // The secret comes from the channel's id and the gateway's key alone: a forged call is turned away before the database.
    if (!sameSecret(headers[SECRET_HEADER], deps.hookSecret(channelId))) return 'unauthorized';
    const update = body as MaxUpdate | null;
    if (!isObject(update)) return 'ignored';
    switch (update.update_type) {
      case 'message_created': {
        const videoLink = deps.videoLink;
        const arriving = arrivingOf(update.message, videoLink && ((videoToken) => videoLink(channelId, videoToken)));
        return arriving.length === 0 ? 'ignored' : settled(await platformReported(deps.messages, channelId, arriving));
      }
      case 'message_edited': {
        const edits = editsOf(update.message, update.timestamp);
        return edits.length === 0 ? 'ignored' : settled(await platformEdited(deps.messages, channelId, edits));
      }
      case 'message_callback': {
        const press = pressOf(update);
        const outcome = press ? settled(await platformReported(deps.messages, channelId, [press])) : 'ignored';
        // Every press MAX need not send again is answered, recorded or not (as Telegram's are), so that the
        // customer's button stops waiting; not one MAX is asked to send again. The answer is given apart from the
        // update's 200, started once that is on its way: it neither holds the 200 up nor fails it.
        const answer = answerOf(update);
        const answers = deps.answers;
        if (answer && answers && outcome !== 'unavailable') setImmediate(() => void answers(channelId, answer).catch(() => {}));
        return outcome;
      }
      default:
        return 'ignored';
    }
  };
}
