import type { ChannelRepository, CredentialsCipher } from '../../core/channels/ports.ts';
import { AppError } from '../../core/errors.ts';
import type { PeerDirectory } from '../../core/messages/peers.ts';
import { DeadlinePassed, untilDeadline } from '../bot-common.ts';
import type { CallLimits, CallPacer } from '../call-pacer.ts';
import { graphApi, type GraphApi } from '../meta/graph-api.ts';
import type { InstagramLoginDeps } from './login.ts';

/** What the Instagram driver is given. */
export interface InstagramDeps {
  /** Meta's Graph API, without its version (https://graph.facebook.com, or an emulator's address in tests). */
  graphUrl: string;
  /** The Meta app's id (META_APP_ID): with its secret, it exchanges a user's token for a long-lived one. */
  appId: string;
  /** The Meta app's secret: it signs Meta's webhooks, and each call carries a proof made with it. */
  appSecret: string;
  /** The token Meta's webhook check must carry (set in the app dashboard as the webhook's verify token). */
  verifyToken: string;
  cipher: CredentialsCipher;
  /** Who is behind each chat (an account name for the interface, an Instagram-scoped id for Meta). */
  peers: PeerDirectory;
  /** Meta's updates name the Instagram account only: its channel is found by it. */
  channels: Pick<ChannelRepository, 'listByMessengerId'>;
  /** Meta no longer takes the channel's page token: the channel is switched off (unless its credentials changed since). */
  revoked?(channelId: string, sealed: string | null): Promise<void>;
  /**
   * Facebook Login for channels created without credentials (login.ts): where their address is kept and the login's
   * state key; without it, only the four fields connect a channel.
   */
  login?: InstagramLoginDeps | null;
  timeoutMs?: number;
  /** How long a send may take in all (SEND_BUDGET_MS unless a test says). */
  sendBudgetMs?: number;
}

/**
 * Below Meta's published limits for the Send API of Instagram messaging (per Instagram account: 300 calls a second
 * for text, links, reactions and stickers, 100 in its earlier figures; 10 a second for audio or video), so that jitter
 * cannot bunch calls over them. The account's other calls (profiles, subscriptions) take turns with its sends. Meta
 * publishes no figure per conversation (only that "too many messages to a single thread" may be limited), and the
 * send loop has one message of a chat in flight at a time, so chats are not paced apart.
 */
export const instagramLimits: CallLimits = { bot: { limit: 50, interval: 1000 }, chat: { limit: 1, interval: 1000 } };
/** Sends of audio and video, on top of the account's pace: Meta takes 10 a second of them per account. */
export const instagramMediaLimits: CallLimits = { bot: { limit: 8, interval: 1000 }, chat: { limit: 1, interval: 1000 } };

/** What a channel keeps of its credentials: the page's token in place of the user's, which is not kept. */
export interface PageCredentials {
  username: string;
  page_id: string;
  inst_id: string;
  page_token: string;
}

/** The page's token and ids among a channel's sealed credentials. */
export function pageOf(cipher: CredentialsCipher, sealed: string | null | undefined): PageCredentials {
  const opened = sealed ? cipher.open(sealed) : {};
  const { username, page_id, inst_id, page_token } = opened;
  if (typeof page_id !== 'string' || typeof inst_id !== 'string' || typeof page_token !== 'string') {
    throw new AppError('CHANNEL_WRONG_STATUS', 'The channel has no Facebook page token; reconnect it');
  }
  return { username: typeof username === 'string' ? username : '', page_id, inst_id, page_token };
}

/**
 * The page's API, its calls paced with the account's other calls (by the Instagram account's id, which is no
 * secret). With a deadline (`signal`), a call still waiting for its turn when it passes is not made, and one under
 * way is ended. `media`: the call sends audio or video, which has a pace of its own besides.
 */
export function pacedPage(
  deps: Pick<InstagramDeps, 'graphUrl' | 'appSecret' | 'timeoutMs'>,
  pacers: { account: CallPacer; media: CallPacer },
  page: PageCredentials,
  options: { signal?: AbortSignal; media?: boolean } = {},
): GraphApi {
  const api = graphApi(deps.graphUrl, page.page_token, deps.appSecret, deps.timeoutMs);
  const { signal, media = false } = options;
  const turn = <T>(call: () => Promise<T>): Promise<T> =>
    media ? pacers.media.pace(page.inst_id, null, () => pacers.account.pace(page.inst_id, null, call)) : pacers.account.pace(page.inst_id, null, call);
  return {
    call: (method, path, callOptions = {}) =>
      untilDeadline(
        turn(() => {
          if (signal?.aborted) throw new DeadlinePassed();
          return api.call(method, path, signal ? { ...callOptions, signal } : callOptions);
        }),
        signal,
      ),
  };
}
