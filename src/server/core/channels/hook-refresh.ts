import type { Transport } from '../../../contract/channels.ts';
import type { Clock } from '../ports.ts';

/**
 * Live bot channels register the gateway's hook with their platform when they connect (Telegram's webhook, MAX's
 * subscription), and the platform keeps what it was given: the update kinds, the address, the secret. When the
 * gateway would register something else now (a release that reads more kinds of updates, another PUBLIC_URL), the
 * channels registered before are brought up to date here, without anyone reconnecting them.
 */

/** An active live channel whose registration differs from what the gateway registers now, as it was read when claimed. */
export interface OutdatedChannel {
  id: string;
  /** The channel's credentials as stored (sealed). */
  credentials: string | null;
  /** The channel's bot on its platform, which the registration is made for. */
  messengerId: string | null;
  /** What the channel was registered with last; null when that was before fingerprints were kept. */
  fingerprint: string | null;
}

/**
 * What a platform made of a registration: made; left alone because the bot does not post to this gateway's hook for
 * the channel (another channel, another deployment or its owner's server took it, or it was removed: registering it
 * again could take the bot from there); or refused because the platform no longer takes the bot's token (the channel
 * is switched off, as after a send).
 */
export type RegistrationOutcome = 'registered' | 'elsewhere' | 'revoked';

/** How one transport registers its channels' hooks on its platform. */
export interface HookRegistrar {
  transport: Transport;
  /** What the gateway registers now, hashed: the same for every channel of the transport while the settings hold. */
  fingerprint: string;
  /**
   * Registers the channel's hook again, as connecting does (pending updates are kept). Throws where it may work later,
   * and once `signal` aborts.
   */
  refresh(channel: OutdatedChannel, signal: AbortSignal): Promise<RegistrationOutcome>;
  /**
   * The channel has another bot now, or is gone, and the registration just made may have pointed its former bot back
   * at it: the bot stops posting to the channel's hook, if it still does. Throws on failure, and once `signal` aborts.
   */
  withdraw(channel: OutdatedChannel, signal: AbortSignal): Promise<void>;
}

/** What storing a new fingerprint found: stored; the channel's fingerprint changed since it was read; the channel left its bot or is gone. */
export type RecordOutcome = 'recorded' | 'changed' | 'left';

/** Where channels' fingerprints are kept, and claimed by one process at a time. */
export interface HookRegistrationRepository {
  /**
   * Up to `limit` active channels of the transport whose fingerprint is not `fingerprint`, after `after` (by id), that
   * no process holds; each is held until `leaseUntil`, so that other processes pass it by meanwhile.
   */
  claimOutdated(claim: { transport: Transport; fingerprint: string; after: string | null; limit: number; now: Date; leaseUntil: Date }): Promise<OutdatedChannel[]>;
  /** Stores `fingerprint` only if the channel still has the fingerprint and the bot it was read with. */
  record(channel: OutdatedChannel, fingerprint: string): Promise<RecordOutcome>;
}

export interface HookRefreshDeps {
  registrations: HookRegistrationRepository;
  registrars: readonly HookRegistrar[];
  clock: Clock;
  /** Told of each channel's result (the metrics count them). */
  counted?(transport: Transport, result: HookRefreshResult): void;
  /** The deadline of one attempt to withdraw a registration (WITHDRAW_ATTEMPT_MS from now unless a test says). */
  withdrawDeadline?(): AbortSignal;
}

/**
 * What became of one channel in a pass. `superseded`: registered, but the channel changed meanwhile (nothing stored);
 * `withdraw_failed`: so, and the channel's former bot, pointed back at it, could not be made to stop posting to it.
 */
export type HookRefreshResult = 'refreshed' | 'elsewhere' | 'revoked' | 'superseded' | 'failed' | 'withdraw_failed';

export type HookRefreshPass = Record<HookRefreshResult, number> & {
  /** Why the last failure failed, to tell in the pass's log line. */
  lastError?: string;
  /** Each withdrawal given up, and why: no later pass comes back to it (the channel no longer names the bot). */
  withdrawErrors?: string[];
};

export const emptyPass = (): HookRefreshPass => ({ refreshed: 0, elsewhere: 0, revoked: 0, superseded: 0, failed: 0, withdraw_failed: 0 });

/** Channels registered at once: each bot's calls still wait for their turn in its pace. */
const BATCH_SIZE = 8;
/**
 * Longer than a batch can take (three calls, each ending within its timeout, and a withdrawal's tries), so that a
 * claim does not lapse under way.
 */
const LEASE_MS = 5 * 60_000;

/**
 * Tries made to withdraw a registration, each ending within WITHDRAW_ATTEMPT_MS: the stop does not cut them short,
 * since nothing comes back to a bot left posting to a channel that no longer names it, yet they end soon all the same.
 */
const WITHDRAW_ATTEMPTS = 3;
const WITHDRAW_ATTEMPT_MS = 10_000;

/** A registration made for a bot the channel left could not be withdrawn. */
class WithdrawFailed extends Error {}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function withdrawFormerBot(deps: HookRefreshDeps, registrar: HookRegistrar, channel: OutdatedChannel): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt < WITHDRAW_ATTEMPTS; attempt++) {
    try {
      return await registrar.withdraw(channel, deps.withdrawDeadline?.() ?? AbortSignal.timeout(WITHDRAW_ATTEMPT_MS));
    } catch (err) {
      lastError = err;
    }
  }
  throw new WithdrawFailed(messageOf(lastError));
}

async function refreshOne(deps: HookRefreshDeps, registrar: HookRegistrar, channel: OutdatedChannel, signal: AbortSignal): Promise<HookRefreshResult> {
  const outcome = await registrar.refresh(channel, signal);
  if (outcome === 'revoked') return 'revoked';
  // A bot found elsewhere is stored as checked too (over the read, as a registration is), so that it is not asked
  // again every hour; it is asked again once the settings change, and a reconnect registers it anyway.
  const stored = await deps.registrations.record(channel, registrar.fingerprint);
  if (outcome === 'elsewhere') return 'elsewhere';
  if (stored === 'recorded') return 'refreshed';
  // A reconnect with another bot, or a deletion, ran meanwhile: the registration made from the read before it must not stand.
  if (stored === 'left') await withdrawFormerBot(deps, registrar, channel);
  return 'superseded';
}

/**
 * One pass over the live channels whose registration is out of date, transport by transport, in small batches
 * claimed so that processes sweeping at once share them out. A channel that fails (the platform out of reach or
 * failing) keeps its fingerprint and its claim, and is tried again by a later pass once the claim lapses; one bad
 * channel never stops the rest. Ends between batches once `signal` aborts (the calls under way end with it, but for
 * a withdrawal, which runs its few short tries to the end).
 */
export async function refreshHooks(deps: HookRefreshDeps, signal: AbortSignal): Promise<HookRefreshPass> {
  const pass = emptyPass();
  for (const registrar of deps.registrars) {
    let after: string | null = null;
    while (!signal.aborted) {
      const now = deps.clock.now();
      const batch = await deps.registrations.claimOutdated({
        transport: registrar.transport,
        fingerprint: registrar.fingerprint,
        after,
        limit: BATCH_SIZE,
        now,
        leaseUntil: new Date(now.getTime() + LEASE_MS),
      });
      if (batch.length === 0) break;
      after = batch.map((c) => c.id).reduce((a, b) => (b > a ? b : a));
      const results = await Promise.all(
        batch.map((channel) =>
          refreshOne(deps, registrar, channel, signal).catch((err: unknown): HookRefreshResult => {
            if (err instanceof WithdrawFailed) {
              (pass.withdrawErrors ??= []).push(`${channel.id}: ${err.message}`);
              return 'withdraw_failed';
            }
            pass.lastError = `${channel.id}: ${messageOf(err)}`;
            return 'failed';
          }),
        ),
      );
      for (const result of results) {
        pass[result]++;
        deps.counted?.(registrar.transport, result);
      }
    }
  }
  return pass;
}
