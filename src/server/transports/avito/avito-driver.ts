import type { Dispatcher } from 'undici';
import { credentialRefusals } from '../../../contract/credential-fields.ts';
import type { ChannelRecord, ConnectOutcome } from '../../core/channels/ports.ts';
import { AppError } from '../../core/errors.ts';
import type { Clock } from '../../core/ports.ts';
import { TransientSendError, type MessagingDriver, type SendOutcome } from '../../core/messages/ports.ts';
import { DeadlinePassed } from '../bot-common.ts';
import type { CallLimits } from '../call-pacer.ts';
import { FileTooLarge, SourceRefused, TransferFailed, UploadRefused } from '../file-source.ts';
import type { AvitoAccounts } from './avito-account.ts';
import { AvitoApiError, AvitoApiUnreachable, GrantRefused, type AvitoApi, type AvitoSelf } from './avito-api.ts';
import { failureOf, waitAsked } from './avito-failures.ts';
import { NotAnImage, assertPictureByName, uploadPicture, type UploadCall } from './avito-images.ts';
import { dropOtherHooks, subscribe, subscriptionUrl, unsubscribe, type HookAddresses } from './avito-subscription.ts';
import { AuthorizationWithdrawn, credentialsFrom } from './avito-tokens.ts';

/**
 * Avito publishes no figure for its limits (each answer may tell one, `X-RateLimit-Limit`, in requests a minute): an
 * account's calls are spaced a second apart, 60 a minute, which a customer service's replies stay well within; a 429
 * that comes all the same is tried again no sooner than its Retry-After. Chats have no limit of their own.
 */
export const avitoLimits: CallLimits = { bot: { limit: 1, interval: 1000 }, chat: { limit: 1, interval: 1000 } };

/** `message.text` of a send: `maxLength: 1000` in Avito's schema (the transport's rules say the same). */
export const AVITO_TEXT_CHARS = 1000;

/**
 * A send, whatever it holds, ends within this: the waits for the pacer, a renewal of the token, the fetch of its
 * picture from the CRM, the upload and the send. It stays under the send's 30 s lease.
 */
const SEND_BUDGET_MS = 25_000;
/** Each wait on a server during a picture's transfer: its headers, and each next part of a body. */
const TRANSFER_TIMEOUT_MS = 12_500;

/** An authorization code as it goes into a form: printable, without spaces, of a sane length. */
const AUTHORIZATION_CODE = /^[\x21-\x7e]{4,512}$/;

export interface AvitoDriverDeps extends HookAddresses {
  api: AvitoApi;
  accounts: AvitoAccounts;
  clock: Clock;
  /** The guarded agent the pictures a send names are fetched through. */
  filesAgent: Dispatcher;
  allowLoopbackFiles: boolean;
  sendBudgetMs?: number;
}

const unreachable = (what: string) => new AppError('SERVICE_UNAVAILABLE', `Avito could not be reached (${what}); try again`);
const charsOf = (text: string) => [...text].length;

/** What Avito answers a send: the message as it keeps it. */
interface SentMessage {
  id?: unknown;
}

/**
 * Connecting an account: its OAuth code is exchanged for a pair of tokens (`POST /token`,
 * `grant_type=authorization_code`, with the application's keys), Avito says whose account it is
 * (`GET /core/v1/accounts/self`: the channel's `messenger_id`, `name` and `phone`), and is given the channel's hook
 * (`POST /messenger/v3/webhook`). The tokens are kept, sealed, in place of the code (which Avito takes once). A code
 * Avito does not take is refused by its field; Avito out of reach or failing is a 503.
 */
export async function connectAvito(
  deps: AvitoDriverDeps,
  channelId: string,
  code: string,
  previous?: Pick<ChannelRecord, 'messengerId' | 'credentials'>,
): Promise<ConnectOutcome> {
  if (!AUTHORIZATION_CODE.test(code)) return { kind: 'refused', field: 'code', message: credentialRefusals.notAuthorizationCode };
  let grant;
  try {
    grant = await deps.api.grant({ grant_type: 'authorization_code', code });
  } catch (err) {
    if (err instanceof GrantRefused) return { kind: 'refused', field: 'code', message: credentialRefusals.notAcceptedByAvito };
    throw unreachable(`POST /token: ${(err as Error).message}`);
  }
  let self: AvitoSelf;
  try {
    self = await deps.api.call<AvitoSelf>('GET', '/core/v1/accounts/self', { token: grant.access_token });
  } catch (err) {
    if (err instanceof AvitoApiUnreachable) throw unreachable('GET /core/v1/accounts/self');
    // Most often the application's scopes: reading the account needs `user:read`, the messenger `messenger:read` and `messenger:write`.
    throw new AppError('SERVICE_UNAVAILABLE', `Avito did not say whose account the code is for (${(err as Error).message}); the application needs the scopes user:read, messenger:read and messenger:write`);
  }
  if (typeof self?.id !== 'number' || !Number.isSafeInteger(self.id)) throw new AppError('SERVICE_UNAVAILABLE', 'Avito answered GET /core/v1/accounts/self without the account’s id');
  const userId = String(self.id);
  const account = deps.accounts.as({ userId, accessToken: grant.access_token, sealed: '' });
  try {
    await subscribe(account, subscriptionUrl(deps, channelId));
  } catch (err) {
    // Most often PUBLIC_URL: Avito posts only to an address it can reach, and asks for an answer within 2 s.
    throw err instanceof AvitoApiUnreachable ? unreachable('POST /messenger/v3/webhook') : new AppError('SERVICE_UNAVAILABLE', `Avito did not take the webhook address: ${(err as Error).message}`);
  }
  await dropOtherHooks(deps, account, channelId);
  // Another account in the channel's place: the one before stops posting here.
  const before = previous?.messengerId && previous.messengerId !== userId ? previous.credentials : null;
  const phone = typeof self.phone === 'string' && /^\d{10,15}$/.test(self.phone) ? self.phone : null;
  return {
    kind: 'ready',
    profile: { messengerId: userId, name: (typeof self.name === 'string' && self.name.trim()) || `Avito ${userId}`, username: null, phone },
    credentials: { ...credentialsFrom(grant, userId, deps.clock.now()) },
    ...(before ? { letGo: () => letGoOfPrevious(deps, channelId, before) } : {}),
  };
}

/**
 * The channel's former account stops posting to its hook, best effort: with its token while it has time left, else
 * with one renewed for the purpose and not stored (the channel is taking other credentials), never switching the
 * channel off for it.
 */
async function letGoOfPrevious(deps: AvitoDriverDeps, channelId: string, sealed: string): Promise<void> {
  try {
    const former = await deps.accounts.former(sealed, AbortSignal.timeout(deps.sendBudgetMs ?? SEND_BUDGET_MS));
    if (former) await unsubscribe(former, subscriptionUrl(deps, channelId));
  } catch {
    // Left subscribed: its messages are for another account than the channel's, and are taken and dropped.
  }
}

/** A deleted channel's account stops posting to its hook (best effort, after the deletion committed). */
export async function disconnectAvito(deps: AvitoDriverDeps, channel: Pick<ChannelRecord, 'id' | 'credentials'>): Promise<void> {
  await deps.accounts.run(channel.id, channel.credentials, AbortSignal.timeout(deps.sendBudgetMs ?? SEND_BUDGET_MS), (account) =>
    unsubscribe(account, subscriptionUrl(deps, channel.id)),
  );
}

/**
 * Messaging as the channel's account: texts, and pictures uploaded first. Avito cannot be written to first (a chat is
 * made by a customer writing about an ad or a profile), takes no idempotency key (a send whose answer is lost in a
 * crash is sent again), gives no delivery or read receipts, and its messages cannot be edited through the API (nor
 * deleted, as the transport's rules say).
 */
export function avitoMessaging(deps: AvitoDriverDeps): MessagingDriver {
  const budgetMs = deps.sendBudgetMs ?? SEND_BUDGET_MS;
  const transfer = (signal: AbortSignal) => ({ agent: deps.filesAgent, allowLoopback: deps.allowLoopbackFiles, timeoutMs: Math.min(TRANSFER_TIMEOUT_MS, budgetMs), signal });
  const failed = (reason: Extract<SendOutcome, { kind: 'failed' }>['reason']): SendOutcome => ({ kind: 'failed', reason });

  return {
    async send(m): Promise<SendOutcome> {
      if (m.chatId === null) return failed('messages_not_text_first');
      if (m.text !== null && charsOf(m.text) > AVITO_TEXT_CHARS) return failed('text_length_is_too_much');
      if (m.text === null && m.attachment === null) return failed('bad_required_parameter');
      const chatId = m.chatId;
      const deadline = AbortSignal.timeout(budgetMs);
      try {
        if (m.attachment) assertPictureByName(m.attachment);
        const sent = await deps.accounts.run(m.channelId, m.sealedCredentials, deadline, async (account) => {
          const chat = `/messenger/v1/accounts/${account.userId}/chats/${encodeURIComponent(chatId)}`;
          if (m.attachment) {
            const upload: UploadCall = (form) => account.call('POST', `/messenger/v1/accounts/${account.userId}/uploadImages`, { stream: form });
            const imageId = await uploadPicture(m.attachment, transfer(deadline), upload);
            return account.call<SentMessage>('POST', `${chat}/messages/image`, { body: { image_id: imageId } });
          }
          return account.call<SentMessage>('POST', `${chat}/messages`, { body: { message: { text: m.text }, type: 'text' } });
        });
        if (typeof sent?.id !== 'string' || sent.id.length === 0) throw new TransientSendError('Avito answered the send without the message’s id');
        return { kind: 'sent', messengerMessageId: sent.id, chatId, delivered: false };
      } catch (err) {
        // Whatever failed as the deadline passed failed because of it.
        if (deadline.aborted || err instanceof DeadlinePassed) throw new TransientSendError(`the send did not finish within ${budgetMs / 1000} s`);
        if (err instanceof TransientSendError) throw err;
        if (err instanceof AuthorizationWithdrawn) return failed('session_revoked');
        if (err instanceof SourceRefused) return failed('can_not_get_content');
        if (err instanceof NotAnImage || err instanceof FileTooLarge || err instanceof UploadRefused) return failed('bad_content');
        if (err instanceof TransferFailed || err instanceof AvitoApiUnreachable) throw new TransientSendError(err.message);
        if (!(err instanceof AvitoApiError)) throw err;
        const reason = failureOf(err);
        if (reason === null) throw new TransientSendError(`Avito answered ${err.status}: ${err.message}`, waitAsked(err));
        return failed(reason);
      }
    },
    edit: () => Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_EDITING', 'Avito messages cannot be edited')),
    remove: () => Promise.reject(new AppError('CHANNEL_INVALID_TRANSPORT_FOR_DELETION', 'Avito messages cannot be deleted through the gateway')),
  };
}
