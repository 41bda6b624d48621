import { createHash } from 'node:crypto';

/**
 * The simulated messenger network's own memory: accounts behind phone numbers and the bot tokens it no
 * longer accepts. The sandbox driver reads it; the sandbox API (acting as the other side) writes it.
 */
export interface SandboxStateRepository {
  /** Phones are the account's own: another account's password for the same number is not seen. */
  twoFactorPassword(accountId: string, phone: string): Promise<string | null>;
  /** null removes the password. */
  setTwoFactorPassword(accountId: string, phone: string, password: string | null): Promise<void>;
  isTokenRevoked(tokenHash: string): Promise<boolean>;
  revokeToken(tokenHash: string): Promise<void>;
  /** What the network knows of a channel's counterpart: unknown customers exist and have never written. */
  customer(channelId: string, chatType: string, chatId: string): Promise<SandboxCustomer | undefined>;
  /** Changes the given fields of a customer, creating it when new. */
  setCustomer(channelId: string, chatType: string, chatId: string, change: Partial<SandboxCustomer>): Promise<void>;
  /**
   * Remembers a delivered message once per request id. A second delivery of the same request returns the
   * first one's record instead: the network never receives a message twice.
   */
  receiveOnce(delivery: SandboxDelivery): Promise<SandboxDelivery>;
  receivedCount(channelId: string): Promise<number>;
}

export interface SandboxCustomer {
  wroteFirst: boolean;
  state: 'ok' | 'blocked' | 'missing';
  lastInboundAt: Date | null;
}

export interface SandboxDelivery {
  requestId: string;
  channelId: string;
  chatId: string;
  messengerMessageId: string;
  receivedAt: Date;
}

/** The chat id the network gives a customer known by username or phone (telegram and max): stable, not the phone. */
export const sandboxChatIdFor = (by: { username?: string | null; phone?: string | null }): string =>
  String(BigInt(`0x${createHash('sha256').update(by.username ? `u:${by.username.toLowerCase()}` : `p:${by.phone}`).digest('hex').slice(0, 12)}`));

