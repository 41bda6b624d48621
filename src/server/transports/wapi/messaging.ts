import { AppError } from '../../core/errors.ts';
import { TransientSendError, type MessagingDriver, type SendOutcome } from '../../core/messages/ports.ts';
import type { CallPacer } from '../call-pacer.ts';
import { graphSendFailure } from '../meta/send-failure.ts';
import { numberOf, pacedNumber, type WhatsAppDeps } from './account.ts';
import { failureOf, isTokenRefused, waitAsked } from './cloud-failures.ts';

import { rememberWaId } from './customers.ts';
import { contentOf, INTERACTIVE_BODY_CHARS, type TemplateToSend } from './outbound.ts';
import { voiceNoteMediaId } from './voice-upload.ts';
import { FileTooLarge, SourceRefused, TransferFailed } from '../file-source.ts';

const refusals = { failureOf, waitAsked, isTokenRefused };

/** What became of a send whose file the gateway could not fetch (a voice note it moves into Ogg); null for other errors. */
function fetchFailure(err: unknown): SendOutcome | null {
  if (err instanceof SourceRefused) return { kind: 'failed', reason: 'can_not_get_content' };
  if (err instanceof FileTooLarge) return { kind: 'failed', reason: 'bad_content' };
  if (err instanceof TransferFailed) throw new TransientSendError('the file could not be fetched; tried again later');
  return null;
}

/** Meta's answer to a send: the message's id, and the customer's WhatsApp id for the number given (`input`). */
type SendAnswer = { messages?: { id?: unknown }[]; contacts?: { input?: unknown; wa_id?: unknown }[] };

/** A send ends within this, its wait for the pacer included: under the send's 30 s lease. */
const SEND_BUDGET_MS = 25_000;

/** Meta's number of the message a quote names: a part of a customer's message (`<wamid>:text`) is that message. */
const wamidOf = (messengerMessageId: string): string => messengerMessageId.split(':')[0]!;

/**
 * Sending through the number (`POST /{phone_number_id}/messages`, with the business token): a text, a file by its
 * URL (Meta fetches it itself: it must be reachable from the internet; a voice note recorded as WebM is fetched by the
 * gateway, moved into Ogg and uploaded instead), a template by the interface's id (its name
 * and language as stored), a text with buttons as an interactive message, a quote as `context.message_id`. A send
 * ends `sent` with Meta's message id (a wamid), the customer's WhatsApp id remembered where it is not the chat's
 * (customers.ts); Meta's later reports (`statuses[]`) move it on. Meta's refusals
 * become the interface's reasons (cloud-failures.ts); a rate limit is tried again after Meta's wait, a token Meta no
 * longer takes switches the channel off. Meta takes no idempotency key: a send whose answer is lost in a crash is
 * sent again. Messages are neither edited nor deleted (the Cloud API offers neither).
 */
export function whatsappMessaging(deps: WhatsAppDeps, pacer: CallPacer): MessagingDriver {
  const budgetMs = deps.sendBudgetMs ?? SEND_BUDGET_MS;

  /** The stored template a send names: its name, language and parts, the send's values and payloads. */
  async function templateOf(channelId: string, ref: { id: string; values?: string[]; buttons?: { payload: string }[] }): Promise<TemplateToSend | null> {
    const stored = await deps.store.templates.findForChannel(channelId, ref.id);
    if (!stored) return null;
    return { name: stored.name, language: stored.language, components: stored.components, values: ref.values ?? [], payloads: (ref.buttons ?? []).map((b) => b.payload) };
  }

  return {
    async send(m): Promise<SendOutcome> {
      if (m.chatId === null) return { kind: 'failed', reason: 'bad_contact' };
      const number = numberOf(deps.cipher, m.sealedCredentials);
      if (!number) return { kind: 'failed', reason: 'message_channel_unavailable' };
      if (m.text !== null && m.keyboard && [...m.text].length > INTERACTIVE_BODY_CHARS) return { kind: 'failed', reason: 'text_length_is_too_much' };
      const template = m.template ? await templateOf(m.channelId, m.template) : null;
      // A template deleted since the send was accepted (the account's templates read again without it).
      if (m.template && !template) return { kind: 'failed', reason: 'bad_required_parameter' };
      if (m.text === null && m.attachment === null && template === null) return { kind: 'failed', reason: 'message_empty' };
      const deadline = AbortSignal.timeout(budgetMs);
      const api = pacedNumber(deps, pacer, number, deadline);
      try {
        // A voice note recorded as WebM goes as Ogg, uploaded first (voice-upload.ts); any other file by its link.
        const voice = m.attachment && !template ? await voiceNoteMediaId(deps, api, number.phone_number_id, m.attachment, deadline) : null;
        const body = {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: m.chatId,
          ...(m.quotedMessengerId ? { context: { message_id: wamidOf(m.quotedMessengerId) } } : {}),
          ...(voice ? { type: 'audio', audio: { id: voice } } : contentOf({ text: m.text, attachment: m.attachment, keyboard: m.keyboard, template })),
        };
        const sent = await api.call<SendAnswer>('POST', `/${number.phone_number_id}/messages`, { body });
        const wamid = Array.isArray(sent?.messages) ? sent.messages[0]?.id : undefined;
        if (typeof wamid !== 'string' || wamid.length === 0) throw new TransientSendError('Meta answered the send without the message’s id');
        const waId = Array.isArray(sent.contacts) ? sent.contacts[0]?.wa_id : undefined;
        // The message is Meta's now: a failure to remember leaves the customer's answers to the number rule (customers.ts), never a second send.
        if (typeof waId === 'string' && /^\d{5,20}$/.test(waId)) await rememberWaId(deps, m.channelId, m.chatId, waId).catch(() => {});
        return { kind: 'sent', messengerMessageId: wamid, chatId: m.chatId, delivered: false };
      } catch (err) {
        const fileFailure = fetchFailure(err);
        if (fileFailure) return fileFailure;
        return graphSendFailure(err, { deadline, budgetMs, refusals, revoke: () => deps.revoked?.(m.channelId, m.sealedCredentials) });
      }
    },
    // The transport's rules say so (no edit, no delete): the API refuses both before a driver is asked.
    edit: () => Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_EDITING', 'Messages of wapi channels cannot be edited')),
    remove: () => Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_DELETION', 'Messages of wapi channels cannot be deleted')),
  };
}
