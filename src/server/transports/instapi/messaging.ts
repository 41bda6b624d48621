import type { Attachment } from '../../../contract/messages.ts';
import { AppError } from '../../core/errors.ts';
import { TransientSendError, type MessagingDriver, type SendOutcome } from '../../core/messages/ports.ts';
import { typeByName } from '../bot-common.ts';
import { pacedPage, pageOf, type InstagramDeps, type PageCredentials } from './account.ts';
import { GraphApiError } from '../meta/graph-api.ts';
import { graphSendFailure } from '../meta/send-failure.ts';
import { failureOf, isQuoteRefused, isTokenRefused, waitAsked } from './graph-failures.ts';

const refusals = { failureOf, waitAsked, isTokenRefused };
import type { Pacers } from './people.ts';

/**
 * Meta takes texts of at most 1000 bytes of UTF-8 ("Send a Message" for Instagram), the interface speaks of 1000
 * characters: a text within the interface's limit but over Meta's (most often Cyrillic: two bytes a letter, so over
 * 500 letters) fails as `text_length_is_too_much` without Meta being asked.
 */
export const MAX_TEXT_BYTES = 1000;
/**
 * A send ends within this, its waits for the pacer included: under the send's 30 s lease, past which it would be
 * claimed again and the customer could get it twice.
 */
const SEND_BUDGET_MS = 25_000;

export type SendKind = 'image' | 'video' | 'audio' | 'file';

const typesByExtension: ReadonlyMap<string, string> = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['gif', 'image/gif'],
  ['mp4', 'video/mp4'],
  ['mov', 'video/quicktime'],
  ['webm', 'video/webm'],
  ['avi', 'video/x-msvideo'],
  ['m4a', 'audio/mp4'],
  ['aac', 'audio/aac'],
  ['wav', 'audio/wav'],
  ['mp3', 'audio/mpeg'],
]);

/** The last segment of a URL's path. */
function pathNameOf(url: string): string | null {
  try {
    return new URL(url).pathname.split('/').at(-1) ?? null;
  } catch {
    return null;
  }
}

/**
 * How Meta is told to show a file a send names by its URL: by its type as the send gives it, else as its name or
 * its address's name says. Meta shows PNG, JPEG and GIF as pictures, and video and sound of the formats it lists;
 * anything else (a PDF, an office file, a WebP) goes as a file. Meta fetches the file itself, from the URL as given:
 * it must be reachable from the internet.
 */
export function sendKindOf(attachment: Pick<Attachment, 'url' | 'name' | 'mimetype'>): SendKind {
  const type = (attachment.mimetype ?? typeByName(attachment.name ?? pathNameOf(attachment.url), typesByExtension) ?? '').toLowerCase();
  if (/^image\/(png|jpeg|gif)$/.test(type)) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  return 'file';
}

/** Meta's number of the message a quote names: a part of a customer's message (`<mid>:1`, `<mid>:text`) is that message. */
const midOf = (messengerMessageId: string): string => messengerMessageId.split(':')[0]!;

/**
 * Sending through the page (`POST /{page_id}/messages`): to the IGSID behind the chat's account name, a text or a
 * file by its URL, a quote as `reply_to`. Instagram does not let a business write first: a chat whose person never
 * wrote (no IGSID is known for its name) fails as `messages_not_text_first` without Meta being asked. Meta takes no
 * idempotency key: a send whose answer is lost in a crash is sent again, so a customer may get it twice. Messages
 * are neither edited nor deleted through Meta's Instagram API.
 */
export function instagramMessaging(deps: InstagramDeps, pacers: Pacers): MessagingDriver {
  const budgetMs = deps.sendBudgetMs ?? SEND_BUDGET_MS;
  return {
    async send(m): Promise<SendOutcome> {
      if (m.chatId === null) return { kind: 'failed', reason: 'messages_not_text_first' };
      if (m.text !== null && Buffer.byteLength(m.text, 'utf8') > MAX_TEXT_BYTES) return { kind: 'failed', reason: 'text_length_is_too_much' };
      if (m.text === null && m.attachment === null) return { kind: 'failed', reason: 'message_empty' };
      let page: PageCredentials;
      try {
        page = pageOf(deps.cipher, m.sealedCredentials);
      } catch {
        return { kind: 'failed', reason: 'message_channel_unavailable' };
      }
      // Instagram's names are compared without case: the person is found however the CRM writes the name.
      const person = await deps.peers.byHandle(m.channelId, m.chatId.toLowerCase());
      if (!person) return { kind: 'failed', reason: 'messages_not_text_first' };
      const kind = m.attachment ? sendKindOf(m.attachment) : null;
      const message = m.text !== null ? { text: m.text } : { attachment: { type: kind, payload: { url: m.attachment!.url } } };
      const body = { recipient: { id: person.peerId }, message };
      const deadline = AbortSignal.timeout(budgetMs);
      try {
        const api = pacedPage(deps, pacers, page, { signal: deadline, media: kind === 'audio' || kind === 'video' });
        const post = (withQuote: boolean) =>
          api.call<{ message_id?: unknown }>('POST', `/${page.page_id}/messages`, {
            body: withQuote && m.quotedMessengerId ? { ...body, reply_to: { mid: midOf(m.quotedMessengerId) } } : body,
          });
        let sent: { message_id?: unknown };
        try {
          sent = await post(true);
        } catch (err) {
          // A quote Meta does not take (a message too old, or one it does not know) does not cost the message.
          if (!(m.quotedMessengerId && err instanceof GraphApiError && isQuoteRefused(err))) throw err;
          sent = await post(false);
        }
        if (typeof sent?.message_id !== 'string' || sent.message_id.length === 0) throw new TransientSendError('Meta answered the send without the message’s id');
        return { kind: 'sent', messengerMessageId: sent.message_id, chatId: m.chatId, delivered: false };
      } catch (err) {
        return graphSendFailure(err, { deadline, budgetMs, refusals, revoke: () => deps.revoked?.(m.channelId, m.sealedCredentials) });
      }
    },
    // The transport's rules say so (no edit, no delete): the API refuses both before a driver is asked.
    edit: () => Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_EDITING', 'Messages of instAPI channels cannot be edited')),
    remove: () => Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_DELETION', 'Messages of instAPI channels cannot be deleted')),
  };
}
