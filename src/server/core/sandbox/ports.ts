import { createHash } from 'node:crypto';

/**
 * The simulated messenger network's own memory: accounts behind phone numbers and the bot tokens it no
 * longer accepts. The sandbox driver reads it; the sandbox API (acting as the other side) writes it.
 */
export interface SandboxStateRepository {
  twoFactorPassword(phone: string): Promise<string | null>;
  /** null removes the password. */
  setTwoFactorPassword(phone: string, password: string | null): Promise<void>;
  isTokenRevoked(tokenHash: string): Promise<boolean>;
  revokeToken(tokenHash: string): Promise<void>;
}

/** Bot tokens are remembered only as digests, like every other secret. */
export const sandboxTokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');
