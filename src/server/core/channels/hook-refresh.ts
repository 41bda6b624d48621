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
 * What a platform made of a registration: made; left alone because the bot no longer posts to this channel's hook
 * (another channel or address took it, or it was removed: registering it again could take the bot back from there);
 * or refused because the platform no longer takes the bot's token (the channel is switched off, as after a send).
 */
export type RegistrationOutcome = 'registered' | 'elsewhere' | 'revoked';

/** How one transport registers its channels' hooks on its platform. */
export interface HookRegistrar {
  transport: Transport;
  /** What the gateway registers now, hashed: the same for every channel of the transport while the settings hold. */
  fingerprint: string;
  /** Registers the channel's hook again, as connecting does (pending updates are kept). Throws where it may work later. */
  refresh(channel: OutdatedChannel, signal: AbortSignal): Promise<RegistrationOutcome>;
  /**
   * The channel has another bot now, or is gone, and the registration just made may have pointed its former bot back
   * at it: the bot stops posting to the channel's hook, if it still does.
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
}

/** What became of one channel in a pass; `superseded`: registered, but the channel changed meanwhile (nothing stored). */
export type HookRefreshResult = 'refreshed' | 'elsewhere' | 'revoked' | 'superseded' | 'failed';

export type HookRefreshPass = Record<HookRefreshResult, number> & {
  /** Why the last failure failed, to tell in the pass's log line. */
  lastError?: string;
};

export const emptyPass = (): HookRefreshPass => ({ refreshed: 0, elsewhere: 0, revoked: 0, superseded: 0, failed: 0 });

/** Channels registered at once: each bot's calls still wait for their turn in its pace. */
const BATCH_SIZE = 8;
/** Longer than a batch can take (three calls, each ending within its timeout), so that a claim does not lapse under way. */
const LEASE_MS = 5 * 60_000;

async function refreshOne(deps: HookRefreshDeps, registrar: HookRegistrar, channel: OutdatedChannel, signal: AbortSignal): Promise<HookRefreshResult> {
  const outcome = await registrar.refresh(channel, signal);
  if (outcome !== 'registered') return outcome;
  const stored = await deps.registrations.record(channel, registrar.fingerprint);
  if (stored === 'recorded') return 'refreshed';
  // A reconnect with another bot, or a deletion, ran meanwhile: the registration made from the read before it must not stand.
  if (stored === 'left') await registrar.withdraw(channel, signal);
  return 'superseded';
}

/**
 * One pass over the live channels whose registration is out of date, transport by transport, in small batches
 * claimed so that processes sweeping at once share them out. A channel that fails (the platform out of reach or
 * failing) keeps its fingerprint and its claim, and is tried again by a later pass once the claim lapses; one bad
 * channel never stops the rest. Ends between batches once `signal` aborts (the calls under way end with it).
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
            pass.lastError = `${channel.id}: ${err instanceof Error ? err.message : String(err)}`;
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
