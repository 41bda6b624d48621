import type { ChannelState, Tier, Transport } from '../../../contract/channels.ts';
import type { Clock, Store } from '../ports.ts';
import type { TransportRulesRegistry } from './transport-rules.ts';

/** The live QR of a channel being connected, and how many codes it has shown so far. */
export interface QrCycle {
  /** Text encoded in the current QR image. */
  payload: string;
  issuedAt: Date;
  shown: number;
}

export interface ChannelProfile {
  phone: string | null;
  username: string | null;
  messengerId: string | null;
  name: string | null;
}

export interface ChannelRecord extends ChannelProfile {
  id: string;
  accountId: string;
  transport: Transport;
  state: ChannelState;
  authUrl: string | null;
  tier: Tier | null;
  paid: boolean;
  /** Encrypted at rest; never returned by the API. */
  credentials: string | null;
  qr: QrCycle | null;
  pairing: { code: string; phone: string } | null;
  /**
   * What the channel last registered with its platform for its updates (a live bot's webhook): stored with the
   * connection, so that a registration made under other settings is found and made again. Set by a connection only:
   * a channel read back leaves it unset, and an update leaves it as stored.
   */
  hookFingerprint?: string | null;
  /**
   * The platform's account the channel's own belongs to, where the platform reports on that account as a whole (a
   * WhatsApp number's WhatsApp Business Account). Unset leaves it as stored.
   */
  messengerAccountId?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Channels the API can see: deleted ones (kept for their history) are never returned. */
export interface ChannelRepository {
  insert(channel: ChannelRecord): Promise<void>;
  /** A channel of the account; another account's channel is not found. */
  get(accountId: string, id: string): Promise<ChannelRecord | undefined>;
  /** The same, locking the row until the transaction ends, so concurrent changes apply one after another. */
  getForUpdate(accountId: string, id: string): Promise<ChannelRecord | undefined>;
  /** For messenger-side callbacks and timers that know only the channel; locks like getForUpdate. */
  getByIdForUpdate(id: string): Promise<ChannelRecord | undefined>;
  /** The same without a lock: a read that changes nothing (outside a transaction, where a lock would end at once). */
  getById(id: string): Promise<ChannelRecord | undefined>;
  /**
   * The channels of a transport that are the messenger's account `messengerId` (a platform posting every account's
   * updates to one address names the account only), most recently changed first.
   */
  listByMessengerId(transport: Transport, messengerId: string): Promise<ChannelRecord[]>;
  /**
   * Within a transaction: holds, until it ends, the lock of a transport's messenger account (taken whether or not a
   * channel holds it yet), so that transactions giving it to a channel apply one after another.
   */
  lockMessengerId(transport: Transport, messengerId: string): Promise<void>;
  /** The channels of a transport whose platform account (`messengerAccountId`) is this, most recently changed first. */
  listByMessengerAccountId(transport: Transport, messengerAccountId: string): Promise<ChannelRecord[]>;
  list(accountId: string): Promise<ChannelRecord[]>;
  update(channel: ChannelRecord): Promise<void>;
  /** Deletes the channel row; its chats and messages go with it. */
  remove(accountId: string, id: string): Promise<void>;
  /** Hides the channel from the API while its chats and messages stay for history and export. */
  retire(accountId: string, id: string, at: Date): Promise<void>;
  /**
   * Stores `next` as the channel's sealed credentials only if it still holds `expected` (a compare-and-swap, outside
   * any transaction): false when they changed meanwhile or the channel is gone. For credentials a platform renews
   * (an OAuth pair that rotates), so that of processes renewing at once one wins and the others read its pair.
   */
  replaceCredentials(id: string, expected: string, next: string): Promise<boolean>;
}

/**
 * On a reconnect, the account the channel had before lets the gateway go on its platform (another bot's webhook
 * removed, the community's server deleted), once the reconnect committed, best effort. Done before, a reconnect that
 * failed to commit would leave the channel with its account and nothing of it posting here.
 */
export type LetGo = () => Promise<void>;

/** What the messenger answers when a channel is connected or reconnected. */
export type ConnectOutcome =
  /**
   * A QR must be scanned. `fromSession`: the codes come from the channel's long-lived session as the messenger issues
   * them (a personal account's), rather than from the gateway's own cycle of codes.
   */
  | { kind: 'qr'; fromSession?: boolean; committed?: () => void }
  /**
   * `hookFingerprint`: what connecting registered with the platform for the channel's updates (live bots).
   * `credentials`: what the channel keeps instead of what it was given (a platform's token of its own, exchanged for
   * the one given, which is then not kept); sealed as given credentials are.
   */
  | { kind: 'ready'; profile: Partial<ChannelProfile>; hookFingerprint?: string; credentials?: Record<string, unknown>; letGo?: LetGo }
  | { kind: 'redirect'; url: string; letGo?: LetGo }
  | { kind: 'refused'; field: string; message: string };

/** The messenger side of connecting: the sandbox network, or a real platform. */
export interface ConnectDriver {
  /** Whether this side connects channels of the transport at all (the live drivers cover some transports). */
  connects(transport: Transport): boolean;
  /** `previous`: the channel's account before a reinit (another bot may be connected in its place). */
  connect(input: {
    channelId: string;
    transport: Transport;
    credentials: Record<string, unknown>;
    previous?: Pick<ChannelRecord, 'messengerId' | 'credentials'>;
  }): Promise<ConnectOutcome>;
  /** A fresh QR payload for the channel, from its own transport's side (a code of one messenger never stands in for another's). */
  newQrPayload(channelId: string, transport: Transport): Promise<string>;
  /**
   * Whether the transport's codes come from the channel's long-lived session as the messenger issues them (a personal
   * WhatsApp account's): the gateway's own cycle never issues or expires them then. Absent: never.
   */
  qrFromSession?(transport: Transport): boolean;
  /**
   * The messenger's own pairing code for linking `phone` to the channel's session, where the messenger issues it
   * (a live personal account); without it the gateway makes one up (the sandbox).
   */
  pairingCode?(channelId: string, phone: string): Promise<string>;
  /** Renders a QR payload as a PNG data URL for `channel.qr_update`. */
  renderQr(payload: string): Promise<string>;
  /** Checks a two-factor password of the account that scanned. */
  checkTwoFactor(input: { accountId: string; channelId: string; phone: string | null; code: string }): Promise<boolean>;
  /** The page the user follows to authorize a business-API number (wapi). */
  authorizationUrl(channelId: string): string;
  /**
   * A deleted channel's account is let go on the platform (a bot stops posting its updates here). Best effort,
   * after the deletion committed: a platform that cannot be told keeps posting, and is answered and ignored.
   */
  disconnect?(channel: Pick<ChannelRecord, 'id' | 'transport' | 'credentials'>): Promise<void>;
}

export interface CredentialsCipher {
  seal(credentials: Record<string, unknown>): string;
  open(sealed: string): Record<string, unknown>;
}

/** What the channel use-cases work with. */
export interface ChannelDeps {
  store: Store;
  clock: Clock;
  rules: TransportRulesRegistry;
  driver: ConnectDriver;
  cipher: CredentialsCipher;
  /** Billing plan shown in `tariff`. */
  plan: string;
}
