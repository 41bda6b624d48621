import type { Dispatcher } from 'undici';
import type { ChannelRepository, CredentialsCipher } from '../../core/channels/ports.ts';
import type { PeerDirectory } from '../../core/messages/peers.ts';
import type { Clock, Store } from '../../core/ports.ts';
import { DeadlinePassed, untilDeadline } from '../bot-common.ts';
import type { CallLimits, CallPacer } from '../call-pacer.ts';
import { graphApi, type GraphApi } from '../meta/graph-api.ts';

/** What the WhatsApp Business (Cloud API) driver is given: the Meta app it is served through, and where it keeps things. */
export interface WhatsAppDeps {
  /** Meta's Graph API, without its version (https://graph.facebook.com, or an emulator's address in tests). */
  graphUrl: string;
  /** The Meta app (META_APP_ID, META_APP_SECRET): its id opens the login dialog, its secret exchanges codes and signs webhooks. */
  appId: string;
  appSecret: string;
  /** The token Meta's check of the callback address must carry (META_VERIFY_TOKEN). */
  verifyToken: string;
  /** The Embedded Signup configuration (Facebook Login for Business) the login dialog opens (WHATSAPP_SIGNUP_CONFIG_ID). */
  signupConfigId: string;
  publicUrl: string;
  /** Signs the `state` of the login dialog (a key of its own, derived from SECRET_KEY). */
  stateKey: Buffer;
  /** Signs the gateway's links to customers' media (a key of its own, derived from SECRET_KEY). */
  linkKey: Buffer;
  cipher: CredentialsCipher;
  /** Meta's posts name a number or an account, not a channel: channels are found by them. */
  channels: Pick<ChannelRepository, 'listByMessengerId' | 'listByMessengerAccountId' | 'getById'>;
  /** The customers whose WhatsApp id is not the number a send was given (customers.ts). */
  peers: PeerDirectory;
  /** The templates a send names (their name and language), and those the account's are read into. */
  store: Store;
  clock: Clock;
  /** Meta no longer takes the channel's token: the channel is switched off (unless its credentials changed since). */
  revoked?(channelId: string, sealed: string | null): Promise<void>;
  /** The guarded agent the files of customers and sends are fetched through (undici's own where unset, in unit tests). */
  filesAgent?: Dispatcher;
  /**
   * How the gateway itself fetches a file a send names (a voice note recorded as WebM, moved into Ogg before Meta
   * gets it): the guarded agent of the CRM's files, and whether loopback is allowed. Unset: such files go by link.
   */
  sendFiles?: { agent: Dispatcher; allowLoopback: boolean };
  timeoutMs?: number;
  /** How long a send may take in all (SEND_BUDGET_MS unless a test says). */
  sendBudgetMs?: number;
}

/**
 * What a channel keeps, sealed: the business token Embedded Signup's code was exchanged for (a business integration
 * system user's token, which does not expire), the WhatsApp Business Account and the number, and the two-step
 * verification PIN the gateway registered the number with (kept so that registering again, after a name change,
 * can give it).
 */
export interface NumberCredentials {
  business_token: string;
  waba_id: string;
  phone_number_id: string;
  pin: string | null;
}

/** The number's token and ids among a channel's sealed credentials; null where it has none (a channel made in a sandbox run). */
export function numberOf(cipher: CredentialsCipher, sealed: string | null | undefined): NumberCredentials | null {
  const opened = sealed ? cipher.open(sealed) : {};
  const { business_token, waba_id, phone_number_id, pin } = opened;
  if (typeof business_token !== 'string' || typeof waba_id !== 'string' || typeof phone_number_id !== 'string') return null;
  return { business_token, waba_id, phone_number_id, pin: typeof pin === 'string' ? pin : null };
}

/**
 * Below the Cloud API's throughput (documented: 80 messages a second per business number by default, raised up to
 * 1,000 as Meta sees fit), so that jitter cannot bunch calls over it. Every call of the number (sends, media lookups,
 * subscriptions, templates) takes its turn. Meta's pair rate limit (documented: about one message every 6 seconds
 * to one customer, with bursts allowed) is not paced ahead: the send loop has one message of a chat in flight at a
 * time, and a 131056 refusal is tried again after Meta's wait.
 */
export const whatsappLimits: CallLimits = { bot: { limit: 60, interval: 1000 }, chat: { limit: 1, interval: 1000 } };

/**
 * The number's API, its calls paced by its phone number id (no secret). With a deadline (`signal`), a call still
 * waiting for its turn when it passes is not made, and one under way is ended.
 */
export function pacedNumber(deps: Pick<WhatsAppDeps, 'graphUrl' | 'appSecret' | 'timeoutMs'>, pacer: CallPacer, number: NumberCredentials, signal?: AbortSignal): GraphApi {
  const api = graphApi(deps.graphUrl, number.business_token, deps.appSecret, deps.timeoutMs);
  return {
    call: (method, path, options = {}) =>
      untilDeadline(
        pacer.pace(number.phone_number_id, null, () => {
          if (signal?.aborted) throw new DeadlinePassed();
          return api.call(method, path, signal ? { ...options, signal } : options);
        }),
        signal,
      ),
  };
}

/** Meta's ids are digits; they go into a URL's path, so nothing else is let through. */
export const isMetaId = (x: unknown): x is string => typeof x === 'string' && /^\d{1,32}$/.test(x);
