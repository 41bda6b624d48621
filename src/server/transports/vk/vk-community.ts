import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ChannelRepository, CredentialsCipher } from '../../core/channels/ports.ts';
import type { Clock, Store } from '../../core/ports.ts';
import { DeadlinePassed, untilDeadline } from '../bot-common.ts';
import type { CallLimits, CallPacer } from '../call-pacer.ts';
import type { VkApi, VkApplication, VkParams } from './vk-api.ts';

/** What the live vk driver is given. */
export interface VkDeps {
  app: VkApplication;
  api: VkApi;
  publicUrl: string;
  /** PREVIOUS_PUBLIC_URL: the hook refresh moves a community's callback server from there. */
  previousPublicUrl: string | null;
  /** Signs the `state` of VK's OAuth pages (a key of its own, derived from SECRET_KEY). */
  stateKey: Buffer;
  cipher: CredentialsCipher;
  /** The channels (their authorization address changes at each step of the connect: a state is taken once). */
  channels: Pick<ChannelRepository, 'getById' | 'listByMessengerId'>;
  store: Store;
  clock: Clock;
  /** VK no longer takes the community's key: the channel is switched off, unless its credentials changed since. */
  revoked(channelId: string, sealed: string | null): Promise<void>;
  /** The guarded agent the files sends name are fetched through. */
  filesAgent: Dispatcher;
  allowLoopbackFiles: boolean;
  timeoutMs?: number;
  /** How long a send may take in all (SEND_BUDGET_MS unless a test says). */
  sendBudgetMs?: number;
}

/**
 * What a vk channel keeps, sealed: the community's access key (`access_token_<group_id>`, which does not expire
 * unless the community withdraws it), the community, and its Callback API server's confirmation code and secret key
 * (random, chosen by the gateway when the server is registered, and sent back by VK in every callback).
 */
export interface CommunityCredentials {
  access_token: string;
  group_id: string;
  confirmation: string;
  secret: string;
}

/** The community's key and settings among a channel's sealed credentials; null where it has none (a sandbox run's channel). */
export function communityOf(cipher: CredentialsCipher, sealed: string | null | undefined): CommunityCredentials | null {
  let opened: Record<string, unknown>;
  try {
    opened = sealed ? cipher.open(sealed) : {};
  } catch {
    return null;
  }
  const { access_token, group_id, confirmation, secret } = opened;
  if (typeof access_token !== 'string' || typeof group_id !== 'string' || typeof confirmation !== 'string' || typeof secret !== 'string') return null;
  return { access_token, group_id, confirmation, secret };
}

/**
 * VK's documented limit for a community's key: 20 calls a second. Each community's calls (sends, uploads, the hook
 * refresh) take their turn under it; a chat is not paced on its own (VK documents no limit per dialog; a flood of
 * like messages is refused with 9 and tried again later).
 */
export const vkLimits: CallLimits = { bot: { limit: 20, interval: 1000 }, chat: { limit: 20, interval: 1000 } };

/** VK's ids of users and communities are digits (a community's negative as a peer). */
export const isVkId = (x: unknown): x is string => typeof x === 'string' && /^\d{1,20}$/.test(x);

/** The community's methods, with its key, each call in the community's pace (keyed by its id, no secret). */
export function pacedCommunity(deps: Pick<VkDeps, 'api'>, pacer: CallPacer, community: Pick<CommunityCredentials, 'access_token' | 'group_id'>, signal?: AbortSignal) {
  return {
    call: <T>(method: string, params: VkParams = {}): Promise<T> =>
      untilDeadline(
        pacer.pace(`group${community.group_id}`, null, () => {
          if (signal?.aborted) throw new DeadlinePassed();
          return deps.api.call<T>(method, params, community.access_token, signal);
        }),
        signal,
      ),
    upload: (url: string, form: { body: Readable; headers: Record<string, string> }) =>
      untilDeadline(
        pacer.pace(`group${community.group_id}`, null, () => deps.api.upload(url, form, signal)),
        signal,
      ),
  };
}

export type CommunityApi = ReturnType<typeof pacedCommunity>;
