import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type { LetGo } from '../../core/channels/ports.ts';
import { AppError, validationError } from '../../core/errors.ts';
import { TransientSendError, type MessagingDriver, type OutboundMessage, type SendOutcome } from '../../core/messages/ports.ts';
import { botKeyOf, DeadlinePassed, tokenFrom, untilDeadline, type LiveBotDeps } from '../bot-common.ts';
import { callPacer, type CallLimits, type CallPacer } from '../call-pacer.ts';
import { MaxApiError, MaxApiUnreachable, maxApi, type MaxApi, type MaxMessage, type MaxSubscription, type MaxUser } from './bot-api.ts';
import { changeRefused, failureOf, isNotReady, isTokenRefused, waitAsked } from './bot-failures.ts';
import { FileTooLarge, SourceRefused, TransferFailed, UploadRefused, sourceAgent } from '../file-source.ts';
import { uploadFrom, type TransferOptions } from './bot-files.ts';
import { maxMessageId } from './bot-hook.ts';
import { inlineKeyboard } from './bot-keyboard.ts';
import { credentialRefusals } from '../../../contract/credential-fields.ts';

/** MAX's driver: the shared deps (the Bot API at https://platform-api2.max.ru; the secret comes back as `X-Max-Bot-Api-Secret`). */
export interface MaxBotDeps extends LiveBotDeps {
  /** The largest file a send uploads (UPLOAD_LIMIT_BYTES unless a test says). */
  fileLimitBytes?: number;
}

/**
 * The updates a channel asks for: new messages, customers' edits of theirs, and presses of callback buttons. MAX
 * keeps the types a subscription was made with: channels subscribed before a change here are subscribed again by the
 * hook refresh (bot-subscription.ts).
 */
export const UPDATE_TYPES: readonly string[] = ['message_created', 'message_edited', 'message_callback'];

/**
 * Below MAX's own figures (30 calls a second per bot, two messages a second into one dialog or group), so that
 * network jitter cannot bunch calls over them. Answers to presses (two a second per dialog or group, dev.max.ru)
 * have a budget of their own, the part of the bot's 30 that sends leave, so that presses, as many as customers
 * make, never hold a send up; an answer whose turn is more than a second away is dropped.
 */
export const maxLimits: CallLimits = {
  bot: { limit: 25, interval: 1000 },
  chat: { limit: 1, interval: 600 },
  answers: { bot: { limit: 4, interval: 1000 }, chat: { limit: 1, interval: 600 }, maxWaitMs: 1000 },
};

/**
 * A send, whatever it holds, ends within this: the waits for the pacer, the fetch of its file from the CRM, the
 * upload to MAX and every `POST /messages`. It stays under the send's 30 s lease, past which the send would be
 * claimed again and the customer could get it twice.
 */
const SEND_BUDGET_MS = 25_000;
/** Each wait on a server during a file's transfer: its headers, and each next part of a body. */
const TRANSFER_TIMEOUT_MS = 12_500;
/**
 * `NewMessageBody.text` in MAX's Bot API schema has `maxLength: 4000`, below the interface's 4096: a longer text is
 * refused here, by the interface's reason, rather than by whatever MAX words its refusal.
 */
export const MAX_TEXT_CHARS = 4000;
/** Waits between sends MAX answers `attachment.not.ready` (it is still processing the upload). */
const NOT_READY_WAITS_MS = [500, 1000, 2000, 3000, 3000, 3000, 3000, 3000];

/** A token as MAX issues it; it goes in a header, so anything else (spaces, line breaks) is refused before it is used. */
const ACCESS_TOKEN = /^[\x21-\x7e]{20,512}$/;

const unreachable = () => new AppError('SERVICE_UNAVAILABLE', 'MAX could not be reached; try again');
const hooksOf = (deps: Pick<MaxBotDeps, 'publicUrl'>) => `${deps.publicUrl}/hooks/maxbot/`;
export const hookUrl = (deps: Pick<MaxBotDeps, 'publicUrl'>, channelId: string) => `${hooksOf(deps)}${channelId}`;
/** What `POST /subscriptions` is given for a channel, by connecting and by the hook refresh alike. */
export const subscriptionBody = (deps: MaxBotDeps, channelId: string) => ({ url: hookUrl(deps, channelId), update_types: UPDATE_TYPES, secret: deps.hookSecret(channelId) });
const charsOf = (text: string) => [...text].length;

/** A bot's access token, from the credentials as the channel stores them (sealed). */
function tokenOf(deps: Pick<MaxBotDeps, 'cipher'>, sealed: string | null): string {
  const token = tokenFrom(deps.cipher, sealed, 'access_token');
  if (token === null) throw new AppError('CHANNEL_WRONG_STATUS', 'The channel has no bot token; reconnect it');
  return token;
}

/**
 * Connecting a bot: MAX says whose token it is (`GET /me`), then is told where to post the bot's updates (UPDATE_TYPES)
 * (`POST /subscriptions`, with the channel's secret). A token MAX does not take is refused by its field.
 */
export async function connectMaxBot(
  deps: MaxBotDeps,
  channelId: string,
  token: string,
  previous?: { messengerId: string | null; credentials: string | null },
): Promise<{ kind: 'ready'; profile: { messengerId: string; username: string | null; name: string }; letGo?: LetGo } | { kind: 'refused'; field: string; message: string }> {
  if (!ACCESS_TOKEN.test(token)) return { kind: 'refused', field: 'access_token', message: credentialRefusals.notMaxBotToken };
  const api = maxApi(deps.apiUrl, token, deps.timeoutMs);
  let me: MaxUser;
  try {
    me = await api.call<MaxUser>('GET', '/me');
  } catch (err) {
    if (err instanceof MaxApiError && (err.status === 401 || err.code === 'verify.token')) return { kind: 'refused', field: 'access_token', message: credentialRefusals.notAcceptedByMax };
    throw err instanceof MaxApiUnreachable ? unreachable() : new AppError('SERVICE_UNAVAILABLE', `MAX refused GET /me: ${(err as Error).message}`);
  }
  if (typeof me?.user_id !== 'number') throw new AppError('SERVICE_UNAVAILABLE', 'MAX answered GET /me without the bot’s id');
  try {
    await api.call('POST', '/subscriptions', { body: subscriptionBody(deps, channelId) });
  } catch (err) {
    // Most often PUBLIC_URL: MAX posts only to https with a certificate it trusts.
    throw err instanceof MaxApiUnreachable ? unreachable() : new AppError('SERVICE_UNAVAILABLE', `MAX did not take the webhook address: ${(err as Error).message}`);
  }
  await dropOtherHooks(deps, api, channelId);
  // Another bot in the channel's place: the one before stops posting here (its updates would pass the channel's secret).
  const before = previous?.messengerId && previous.messengerId !== String(me.user_id) ? previous.credentials : null;
  const name = [me.first_name, me.last_name].filter(Boolean).join(' ') || me.name || me.username || String(me.user_id);
  return {
    kind: 'ready',
    profile: { messengerId: String(me.user_id), username: me.username ?? null, name },
    ...(before ? { letGo: () => disconnectMaxBot(deps, channelId, before) } : {}),
  };
}

/**
 * MAX adds a subscription for each address rather than replacing the one before, and posts every update to each.
 * A bot connected to another channel of this gateway before (or connected to a second one now) would have each
 * customer's message recorded in both: the bot's other subscriptions to this gateway's hooks are removed, so its
 * updates come to the channel connected last. Addresses elsewhere (the bot owner's own, another gateway's, this
 * one's under an earlier PUBLIC_URL) are left as they are. Best effort: a bot whose list cannot be read or changed
 * now keeps its subscriptions, and the channel connects all the same.
 */
async function dropOtherHooks(deps: MaxBotDeps, api: MaxApi, channelId: string): Promise<void> {
  let found: string[];
  try {
    found = await subscribedUrls(api);
  } catch {
    return;
  }
  for (const url of otherHooks(deps, channelId, found)) await api.call('DELETE', '/subscriptions', { query: { url } }).catch(() => {});
}

/** The addresses the bot is subscribed to (`GET /subscriptions`). */
export async function subscribedUrls(api: MaxApi): Promise<string[]> {
  const found = await api.call<{ subscriptions?: MaxSubscription[] }>('GET', '/subscriptions');
  return (Array.isArray(found?.subscriptions) ? found.subscriptions : []).map((sub) => sub?.url).filter((url): url is string => typeof url === 'string');
}

/** Among the bot's subscriptions, those to this gateway's hooks other than the channel's (see dropOtherHooks). */
export const otherHooks = (deps: MaxBotDeps, channelId: string, urls: readonly string[]): string[] =>
  urls.filter((url) => url.startsWith(hooksOf(deps)) && url !== hookUrl(deps, channelId));

/** The bot stops posting the channel's updates here (its subscription to the channel's address is removed). */
export async function disconnectMaxBot(deps: MaxBotDeps, channelId: string, sealed: string | null): Promise<void> {
  await maxApi(deps.apiUrl, tokenOf(deps, sealed), deps.timeoutMs).call('DELETE', '/subscriptions', { query: { url: hookUrl(deps, channelId) } });
}

/** Whom a send goes to: a customer by their user id, a group by its chat id. */
const recipientOf = (m: Pick<OutboundMessage, 'chatType' | 'chatId'>): Record<string, string> => (m.chatType === 'maxgroup' ? { chat_id: m.chatId! } : { user_id: m.chatId! });

/**
 * The channel's bot, its calls paced to MAX's limits with the bot's other calls: per bot, and sends (`chatId`) per
 * chat too. With a deadline (`signal`), a call still waiting for its turn when it passes is not made, and one under
 * way is ended.
 */
export function pacedMax(deps: Pick<MaxBotDeps, 'apiUrl' | 'cipher' | 'timeoutMs'>, pacer: CallPacer, sealed: string | null, chatId: string | null, signal?: AbortSignal): MaxApi {
  const token = tokenOf(deps, sealed);
  const api = maxApi(deps.apiUrl, token, deps.timeoutMs);
  // The bot is told apart by a digest of its token, which is not kept here.
  const botId = botKeyOf(token);
  return {
    call: (method, path, options = {}) =>
      untilDeadline(
        pacer.pace(botId, chatId, () => {
          if (signal?.aborted) throw new DeadlinePassed();
          return api.call(method, path, signal ? { ...options, signal } : options);
        }),
        signal,
      ),
  };
}

/**
 * Messaging through a bot. MAX takes no idempotency key: a send whose answer is lost (a crash between MAX's
 * answer and its record) is sent again on retry, so a customer may get such a message twice. Bots cannot write
 * first, so a chat known only by username or phone fails as MAX would (`contact_can_not_create`).
 */
export function maxBotMessaging(deps: MaxBotDeps, pacer: CallPacer = callPacer(maxLimits, () => true)): MessagingDriver {
  const agent: Dispatcher = deps.filesAgent ?? sourceAgent(deps.allowLoopbackFiles ?? false);
  const budgetMs = deps.sendBudgetMs ?? SEND_BUDGET_MS;
  const apiFor = (sealed: string | null, chatId: string | null, signal?: AbortSignal): MaxApi => pacedMax(deps, pacer, sealed, chatId, signal);
  const transfer = (signal: AbortSignal): TransferOptions => ({
    agent,
    allowLoopback: deps.allowLoopbackFiles ?? false,
    timeoutMs: Math.min(TRANSFER_TIMEOUT_MS, budgetMs),
    signal,
    ...(deps.fileLimitBytes !== undefined ? { limitBytes: deps.fileLimitBytes } : {}),
  });
  /** A refused token switches the channel off, whichever call learned it. */
  const noteRevoked = async (err: unknown, channelId: string, sealed: string | null) => {
    if (isTokenRefused(err)) await deps.revoked?.(channelId, sealed);
  };

  /** Sends one message body, again while MAX is still processing its file (the upload is not repeated), until the deadline. */
  async function post(api: MaxApi, query: Record<string, string>, body: Record<string, unknown>, signal: AbortSignal): Promise<MaxMessage> {
    for (let i = 0; ; i++) {
      try {
        return (await api.call<{ message: MaxMessage }>('POST', '/messages', { query, body })).message;
      } catch (err) {
        const wait = NOT_READY_WAITS_MS[i];
        if (!isNotReady(err) || wait === undefined) throw err;
        await sleep(wait, undefined, { signal });
      }
    }
  }

  return {
    async send(m): Promise<SendOutcome> {
      if (m.chatId === null) return { kind: 'failed', reason: 'contact_can_not_create' };
      if (m.text !== null && charsOf(m.text) > MAX_TEXT_CHARS) return { kind: 'failed', reason: 'text_length_is_too_much' };
      // One deadline for all of it, from here: pacer waits, the file's fetch and upload, each try of the send.
      const deadline = AbortSignal.timeout(budgetMs);
      const keyboard = inlineKeyboard(m.keyboard);
      try {
        const api = apiFor(m.sealedCredentials, m.chatId, deadline);
        const file = m.attachment ? await uploadFrom(apiFor(m.sealedCredentials, null, deadline), m.attachment, transfer(deadline)) : null;
        const body = {
          ...(m.text !== null ? { text: m.text } : {}),
          ...(file || keyboard ? { attachments: [...(file ? [file] : []), ...(keyboard ? [keyboard] : [])] } : {}),
          ...(m.quotedMessengerId ? { link: { type: 'reply', mid: maxMessageId(m.quotedMessengerId) } } : {}),
        };
        const sent = await post(api, recipientOf(m), body, deadline);
        if (typeof sent?.body?.mid !== 'string') throw new TransientSendError('MAX answered the send without the message’s id');
        return { kind: 'sent', messengerMessageId: sent.body.mid, chatId: m.chatId, delivered: false };
      } catch (err) {
        // Whatever failed as the deadline passed failed because of it.
        if (deadline.aborted || err instanceof DeadlinePassed) throw new TransientSendError(`the send did not finish within ${budgetMs / 1000} s`);
        if (err instanceof SourceRefused) return { kind: 'failed', reason: 'can_not_get_content' };
        if (err instanceof FileTooLarge || err instanceof UploadRefused) return { kind: 'failed', reason: 'bad_content' };
        if (err instanceof TransferFailed || err instanceof MaxApiUnreachable) throw new TransientSendError(err.message);
        if (!(err instanceof MaxApiError)) throw err;
        const reason = failureOf(err, m.chatType);
        if (reason === null) throw new TransientSendError(`MAX answered ${err.status}: ${err.code || err.message}`, waitAsked(err));
        await noteRevoked(err, m.channelId, m.sealedCredentials);
        return { kind: 'failed', reason };
      }
    },

    async edit(ref) {
      if (ref.text !== null && charsOf(ref.text) > MAX_TEXT_CHARS) {
        throw validationError([{ field: 'text', message: `must not be longer than ${MAX_TEXT_CHARS} characters on MAX` }]);
      }
      const deadline = AbortSignal.timeout(budgetMs);
      try {
        const api = apiFor(ref.sealedCredentials, null, deadline);
        // Without `attachments` MAX keeps the message's own (its file, its keyboard); a new file replaces them all.
        const file = ref.attachment ? await uploadFrom(api, ref.attachment, transfer(deadline)) : null;
        const keyboard = inlineKeyboard(ref.keyboard);
        const body = file ? { attachments: [file, ...(keyboard ? [keyboard] : [])], ...(ref.text !== null ? { text: ref.text } : {}) } : { text: ref.text ?? '' };
        await api.call('PUT', '/messages', { query: { message_id: maxMessageId(ref.messengerMessageId) }, body });
      } catch (err) {
        if (deadline.aborted || err instanceof DeadlinePassed) throw new AppError('SERVICE_UNAVAILABLE', `MAX did not take the edit within ${budgetMs / 1000} s; try again`);
        if (err instanceof SourceRefused) throw validationError([{ field: 'attachment.url', message: `could not be fetched (${err.message})` }]);
        if (err instanceof FileTooLarge) throw validationError([{ field: 'attachment.url', message: err.message }]);
        if (err instanceof UploadRefused) throw validationError([{ field: 'attachment.url', message: err.message }]);
        if (err instanceof TransferFailed) throw new AppError('SERVICE_UNAVAILABLE', `${err.message}; try again`);
        await noteRevoked(err, ref.channelId, ref.sealedCredentials);
        throw changeRefused(err, 'edited');
      }
    },

    async remove(ref) {
      try {
        await apiFor(ref.sealedCredentials, null).call('DELETE', '/messages', { query: { message_id: maxMessageId(ref.messengerMessageId) } });
      } catch (err) {
        await noteRevoked(err, ref.channelId, ref.sealedCredentials);
        throw changeRefused(err, 'deleted');
      }
    },
  };
}
