import { AppError } from '../../core/errors.ts';
import { DeadlinePassed, tokenFrom, untilDeadline, type LiveBotDeps } from '../bot-common.ts';
import type { CallPacer } from '../call-pacer.ts';
import { BotApiError, botApi, type BotApi } from './bot-api.ts';

/** A bot token, from the credentials as the channel stores them (sealed). */
export function tokenOf(deps: Pick<LiveBotDeps, 'cipher'>, sealed: string | null): string {
  const token = tokenFrom(deps.cipher, sealed, 'telegram_token');
  if (token === null) throw new AppError('CHANNEL_WRONG_STATUS', 'The channel has no bot token; reconnect it');
  return token;
}

/** Whether Telegram no longer takes the bot's token (the channel is switched off, whichever call learned it). */
export const isTokenRefused = (err: unknown): boolean => err instanceof BotApiError && err.errorCode === 401;

/**
 * A channel's bot, its calls paced to Telegram's limits with the bot's other calls: per bot, and for sends into a
 * group (`groupChatId`) per group too. With a deadline (`signal`), a call still waiting for its turn when it passes
 * is not made, and one under way is no longer waited for (uploads end with it; other calls end at `timeoutMs`).
 */
export function pacedBot(
  deps: Pick<LiveBotDeps, 'apiUrl' | 'cipher'>,
  pacer: CallPacer,
  sealed: string | null,
  groupChatId: string | null,
  timeoutMs: number | undefined,
  signal?: AbortSignal,
): BotApi {
  const token = tokenOf(deps, sealed);
  const api = botApi(deps.apiUrl, token, timeoutMs);
  const paced = <T>(call: () => Promise<T>) =>
    untilDeadline(
      pacer.pace(token.split(':')[0]!, groupChatId, () => {
        if (signal?.aborted) throw new DeadlinePassed();
        return call();
      }),
      signal,
    );
  return {
    call: (method, params) => paced(() => api.call(method, params)),
    upload: (method, form) => paced(() => api.upload(method, form, signal)),
  };
}
