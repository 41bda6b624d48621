import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import { TransientSendError, type MessagingDriver, type SendOutcome } from '../../core/messages/ports.ts';
import { DeadlinePassed } from '../bot-common.ts';
import type { CallPacer } from '../call-pacer.ts';
import { FileTooLarge, SourceRefused, TransferFailed, UploadRefused } from '../file-source.ts';
import { VkApiError, VkApiUnreachable } from './vk-api.ts';
import { communityOf, pacedCommunity, type VkDeps } from './vk-community.ts';
import { failureOf } from './vk-failures.ts';
import { uploadFile } from './vk-files.ts';

/** A send ends within this, its wait for the pacer and its upload included: under the send's 30 s lease. */
const SEND_BUDGET_MS = 25_000;
/** How long one wait on a file's server may take. */
const TRANSFER_TIMEOUT_MS = 10_000;
/** VK's longest message (documented: 4096 characters; the transport's rules check it before a send is accepted). */
const VK_TEXT_CHARS = 4096;

/**
 * The `random_id` of a send: 48 bits of a digest of the gateway's message id, a positive safe integer. VK keeps the
 * same message from being sent twice by it (per application and sender, across all the community's dialogs): a send
 * tried again after its answer was lost gives the same one, and VK answers with the message it sent the first time
 * (inferred: the documentation does not say what VK answers, nor how long it remembers; an hour is said in VK's
 * developer community). Two different messages with the same one would make VK drop the second and answer the
 * first's id, so the range is wide: VK's documentation of `messages.send` (vk.com/dev/messages.send, Russian edition)
 * says the uniqueness is checked over the whole message history and asks for a large range, "up to int64"; today's
 * edition types it as integer without a bound, and common VK libraries send values beyond 2^31. At 48 bits, 100,000
 * sends an hour give a collision within an hour about once in 56,000 hours (32 bits gave about one an hour). Zero,
 * which VK takes as "none", is never given.
 */
export function randomIdOf(requestId: string): number {
  const n = createHash('sha256').update(requestId).digest().readUIntBE(0, 6);
  return n === 0 ? 1 : n;
}

/** VK's number of the message a quote names: a part of a message (`<id>:<n>`) is that message. */
const vkIdOf = (messengerMessageId: string): string | null => {
  const id = messengerMessageId.split(':')[0]!;
  return /^\d{1,20}$/.test(id) ? id : null;
};

/**
 * Sending as the community (`messages.send` with its key): to the dialog `peer_id` (the chat's id), with a
 * `random_id` of the message's id, the text, a quote as `reply_to` where the quoted message has VK's number, and a
 * file uploaded first (vk-files.ts). VK answers the message's id, which becomes the message's messenger id (and
 * by which VK's copy of it, `message_reply`, is found). VK's refusals become the interface's reasons (vk-failures.ts):
 * a flood or rate limit is tried again later, a key VK no longer takes switches the channel off. Messages are
 * neither edited nor deleted (the transport's rules say so).
 */
export function vkMessaging(deps: VkDeps, pacer: CallPacer): MessagingDriver {
  const budgetMs = deps.sendBudgetMs ?? SEND_BUDGET_MS;
  const failed = (reason: Extract<SendOutcome, { kind: 'failed' }>['reason']): SendOutcome => ({ kind: 'failed', reason });
  return {
    async send(m): Promise<SendOutcome> {
      if (m.chatId === null || !/^\d{1,10}$/.test(m.chatId)) return failed('bad_contact');
      const community = communityOf(deps.cipher, m.sealedCredentials);
      if (!community) return failed('message_channel_unavailable');
      if (m.text !== null && [...m.text].length > VK_TEXT_CHARS) return failed('text_length_is_too_much');
      if (m.text === null && m.attachment === null) return failed('message_empty');
      const deadline = AbortSignal.timeout(budgetMs);
      const api = pacedCommunity(deps, pacer, community, deadline);
      const quoted = m.quotedMessengerId ? vkIdOf(m.quotedMessengerId) : null;
      try {
        const attachment = m.attachment
          ? await uploadFile(api, m.chatId, m.attachment, { agent: deps.filesAgent, allowLoopback: deps.allowLoopbackFiles, timeoutMs: Math.min(TRANSFER_TIMEOUT_MS, budgetMs), signal: deadline })
          : undefined;
        const sent = await api.call<unknown>('messages.send', {
          peer_id: m.chatId,
          random_id: randomIdOf(m.requestId),
          ...(m.text !== null ? { message: m.text } : {}),
          ...(attachment ? { attachment } : {}),
          ...(quoted ? { reply_to: quoted } : {}),
        });
        if (typeof sent !== 'number' || !Number.isSafeInteger(sent) || sent <= 0) throw new TransientSendError('VK answered the send without the message’s id');
        return { kind: 'sent', messengerMessageId: String(sent), chatId: m.chatId, delivered: false };
      } catch (err) {
        // Whatever failed as the deadline passed failed because of it.
        if (deadline.aborted || err instanceof DeadlinePassed) throw new TransientSendError(`the send did not finish within ${budgetMs / 1000} s`);
        if (err instanceof TransientSendError) throw err;
        if (err instanceof SourceRefused) return failed('can_not_get_content');
        if (err instanceof FileTooLarge || err instanceof UploadRefused) return failed('bad_content');
        if (err instanceof TransferFailed || err instanceof VkApiUnreachable) throw new TransientSendError(err.message);
        if (!(err instanceof VkApiError)) throw err;
        const failure = failureOf(err);
        if (failure.kind === 'retry') throw new TransientSendError(`VK refused the send for now (${err.code}): ${err.message}`, failure.waitMs);
        if (failure.kind === 'revoked') {
          await deps.revoked(m.channelId, m.sealedCredentials);
          return failed('session_revoked');
        }
        return failed(failure.reason);
      }
    },
    edit: () => Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_EDITING', 'Messages of vk channels cannot be edited')),
    remove: () => Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_DELETION', 'Messages of vk channels cannot be deleted')),
  };
}
