import type { CredentialsCipher, ChannelRepository } from '../../core/channels/ports.ts';
import { DeadlinePassed, tokenFrom, untilDeadline } from '../bot-common.ts';
import { AnswerDropped, type CallPacer } from '../call-pacer.ts';
import { MaxApiError, MaxApiUnreachable, maxApi } from './bot-api.ts';
import { isTokenRefused } from './bot-failures.ts';
import type { PressAnswer } from './bot-hook.ts';
import { botKeyOf } from '../bot-common.ts';

/** Answers a press of a callback button, best effort: settles when it is done or given up, and never fails. */
export type PressAnswerer = (channelId: string, answer: PressAnswer) => Promise<void>;

/**
 * Why a press went unanswered: `busy` (too many answers under way in this process), `dropped` (its turn in the
 * bot's or chat's pace was too far away), `timeout`, `refused` (MAX said no: an id it does not know, or answered
 * already), `revoked` (MAX no longer takes the token), `unreachable`, or `error`.
 */
export type AnswerFailure = 'busy' | 'dropped' | 'timeout' | 'refused' | 'revoked' | 'unreachable' | 'error';

/** How long an answer may take in all, its read of the channel and its wait for its turn included. */
const ANSWER_TIMEOUT_MS = 5_000;
/** Answers under way at once in a process; a press beyond them is not answered. */
const MAX_ANSWERING = 8;
/** Presses remembered as answered, so that one MAX sends again is not answered twice. */
const REMEMBERED = 10_000;

function failureOf(err: unknown, deadline: AbortSignal): AnswerFailure {
  if (err instanceof AnswerDropped) return 'dropped';
  if (err instanceof DeadlinePassed || deadline.aborted) return 'timeout';
  if (err instanceof MaxApiError) return isTokenRefused(err) ? 'revoked' : 'refused';
  if (err instanceof MaxApiUnreachable) return 'unreachable';
  return 'error';
}

/**
 * Answers presses of callback buttons with `POST /answers?callback_id=<id>` and a one-time notification, so that the
 * customer's button stops waiting (MAX's `CallbackAnswer` is an updated message and/or a notification; the message
 * is left as it is). The bot's token comes from the channel as stored (sealed, read without a lock); a channel that
 * is not active, or has no token, is not answered. The call is paced on the answers' own budget (`pacer`: per bot,
 * and per chat, where MAX allows two answers a second) and ends within 5 s, the read of the channel and the wait
 * included. A press is answered once per process: one MAX sends again (its update's 200 was lost) is not answered
 * again, whether the first answer was taken or refused. A failure is told to `failed`, and ends there: nothing is
 * tried again; a token MAX no longer takes switches the channel off (`revoked`), as a send's refusal does.
 */
export function pressAnswerer(deps: {
  apiUrl: string;
  cipher: CredentialsCipher;
  channels: Pick<ChannelRepository, 'getById'>;
  pacer?: CallPacer;
  timeoutMs?: number;
  maxAnswering?: number;
  /** MAX no longer takes the channel's token (`sealed` is the refused one). */
  revoked?(channelId: string, sealed: string | null): Promise<void>;
  /** A press went unanswered, and why. */
  failed?(reason: AnswerFailure): void;
}): PressAnswerer {
  const limit = deps.timeoutMs ?? ANSWER_TIMEOUT_MS;
  const most = deps.maxAnswering ?? MAX_ANSWERING;
  let answering = 0;
  // Insertion order: the first is the one remembered longest.
  const given = new Set<string>();
  const remember = (key: string) => {
    given.add(key);
    if (given.size > REMEMBERED) given.delete(given.values().next().value!);
  };

  async function answer(channelId: string, press: PressAnswer, deadline: AbortSignal): Promise<void> {
    const channel = await deps.channels.getById(channelId);
    if (channel?.transport !== 'maxbot' || channel.state.status !== 'active' || !channel.credentials) return;
    const token = tokenFrom(deps.cipher, channel.credentials, 'access_token');
    if (token === null) return;
    const call = () => {
      if (deadline.aborted) return Promise.reject(new DeadlinePassed());
      return maxApi(deps.apiUrl, token, limit).call('POST', '/answers', { query: { callback_id: press.callbackId }, body: { notification: press.notification }, signal: deadline });
    };
    try {
      await untilDeadline(deps.pacer ? deps.pacer.answer(botKeyOf(token), press.chatId, call) : call(), deadline);
    } catch (err) {
      if (isTokenRefused(err)) await deps.revoked?.(channelId, channel.credentials);
      throw err;
    }
  }

  return async (channelId, press) => {
    const key = `${channelId}/${press.callbackId}`;
    if (given.has(key)) return;
    if (answering >= most) return deps.failed?.('busy');
    remember(key);
    answering++;
    // One deadline for all of it, from before the channel is read.
    const deadline = AbortSignal.timeout(limit);
    try {
      await untilDeadline(answer(channelId, press, deadline), deadline);
    } catch (err) {
      deps.failed?.(failureOf(err, deadline));
    } finally {
      answering--;
    }
  };
}
