import type { Clock, Store } from '../ports.ts';

/** What a client access token may reach: `transport` the channels, `crm` messages, people, deals, settings, frames. */
export type Scope = 'transport' | 'crm';
export const allScopes: readonly Scope[] = ['transport', 'crm'];

/** A partner that signs in with HTTP Basic; null stands for the operator's partner key. */
export interface PartnerRecord {
  id: string;
  login: string;
  secretHash: string;
  createdAt: Date;
}

export interface OAuthClientRecord {
  id: string;
  partnerId: string | null;
  name: string;
  redirectUris: string[];
  createdAt: Date;
}

/** One line of descent of tokens: what an exchange or a code started, and every refresh since. Revoked as one. */
export interface GrantRecord {
  id: string;
  accountId: string;
  partnerId: string | null;
  clientId: string | null;
  scopes: Scope[];
  createdAt: Date;
  revokedAt: Date | null;
}

export interface OAuthTokenRecord {
  id: string;
  grantId: string;
  kind: 'access' | 'refresh';
  secretHash: string;
  createdAt: Date;
  expiresAt: Date;
  /** A refresh token once traded; presenting it again betrays a copy and revokes the grant. */
  spentAt: Date | null;
}

export interface CodeRecord {
  id: string;
  secretHash: string;
  clientId: string;
  accountId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  grantId: string | null;
}

export interface AccountProfile {
  accountId: string;
  publicId: number;
  name: string;
  partnerId: string | null;
  lang: string | null;
  currency: string | null;
  country: string | null;
  timezone: number | null;
  wabaBalance: number;
  createdAt: Date;
}

export interface WabaTransaction {
  id: string;
  accountId: string;
  channelId: string | null;
  kind: 'top_up' | 'conversation';
  amount: number;
  chatId: string | null;
  createdAt: Date;
}

export interface AuthRepository {
  partners: {
    /** Creates the login, or gives an existing one a new secret. */
    upsert(partner: PartnerRecord): Promise<PartnerRecord>;
    byLogin(login: string): Promise<PartnerRecord | undefined>;
  };
  clients: {
    insert(client: OAuthClientRecord): Promise<void>;
    get(id: string): Promise<OAuthClientRecord | undefined>;
    list(partnerId: string | null): Promise<OAuthClientRecord[]>;
  };
  grants: {
    insert(grant: GrantRecord): Promise<void>;
    /** Marks the grant revoked (once); false when it was already. */
    revoke(id: string, at: Date): Promise<boolean>;
    /** Revokes every open grant of the account; the ids of those it revoked. */
    revokeAccount(accountId: string, at: Date): Promise<string[]>;
  };
  tokens: {
    insert(token: OAuthTokenRecord): Promise<void>;
    /** The token with its grant. */
    get(id: string): Promise<{ token: OAuthTokenRecord; grant: GrantRecord } | undefined>;
    /** Marks a refresh token spent; false when it already was (a concurrent trade won). */
    spend(id: string, at: Date): Promise<boolean>;
  };
  codes: {
    insert(code: CodeRecord): Promise<void>;
    get(id: string): Promise<CodeRecord | undefined>;
    /** Marks the code used and names the grant it started; false when it was used already. */
    redeem(id: string, at: Date, grantId: string): Promise<boolean>;
  };
  accounts: {
    /** Sets what partners know of an account; its public id comes back. */
    describe(accountId: string, profile: Pick<AccountProfile, 'partnerId' | 'lang' | 'currency' | 'country' | 'timezone'>): Promise<number>;
    /** By the 8-digit public id, or by the internal id. */
    find(ref: string): Promise<AccountProfile | undefined>;
    list(partnerId: string | null): Promise<AccountProfile[]>;
  };
  owners: {
    set(owner: { accountId: string; email: string; passwordHash: string; createdAt: Date }): Promise<void>;
    byEmail(email: string): Promise<{ accountId: string; passwordHash: string } | undefined>;
  };
  waba: {
    topUp(tx: WabaTransaction): Promise<void>;
    /**
     * Takes the amount from the balance and records it, once per transaction id (a retried send is not charged twice);
     * false (nothing taken) when the balance is short.
     */
    charge(tx: WabaTransaction): Promise<boolean>;
    /** The account a channel belongs to and its currency (null: the account is not billed). */
    billingOfChannel(channelId: string): Promise<{ accountId: string; currency: string | null } | undefined>;
    transactions(channelId: string, from: Date, to: Date): Promise<WabaTransaction[]>;
  };
}

export interface AuthDeps {
  store: Store;
  auth: AuthRepository;
  clock: Clock;
  /** Signs machine tokens (a key derived from SECRET_KEY for that purpose alone). */
  machineKey: Uint8Array;
  publicUrl: string;
  /** Told the ids of grants just revoked, to end what their tokens minted (frame sessions, links). */
  grantsEnded?: GrantsEnded;
}

export type GrantsEnded = (grantIds: string[]) => Promise<void>;
