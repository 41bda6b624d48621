import type { Tier, Transport } from '../../../contract/channels.ts';
import { channelTierEvent } from './channel-events.ts';
import { applyTrigger } from './channel-steps.ts';
import type { ChannelDeps, ChannelProfile, ChannelRecord } from './ports.ts';

/** What the owner granted on the platform's page, as the platform tells it once asked. */
export interface AuthorizationGrant {
  profile: Partial<ChannelProfile> & { messengerAccountId?: string };
  tier: Tier | null;
  /** What the channel keeps (sealed here): the platform's token for the account, in place of nothing. */
  credentials: Record<string, unknown>;
  /** What connecting registered with the platform for the channel's updates. */
  hookFingerprint?: string;
  /**
   * The channel's address once the transport took the step, before asking the platform (so that a second return with
   * the same state stops before changing anything there): the grant is then the channel's while it still waits at
   * this address, in place of the one the return came for.
   */
  takenAt?: string;
}

/** A page of choices the owner is shown on the way (VK's communities to pick from), each leading on to the platform. */
export interface AuthorizationChoice {
  title: string;
  text: string;
  options: { label: string; url: string }[];
}

/**
 * A platform's page that sends the channel's owner back to the gateway once they authorized it (wapi's Embedded
 * Signup): the transport reads what the page gives back.
 */
export interface AuthorizationReturn {
  transport: Transport;
  /** The platform, as the owner's page names it when it could not be reached ('Meta' unless said). */
  platform?: string;
  /** What the page says once the channel is connected (a title and a sentence), when the transport says it its way. */
  connectedPage?(channel: ChannelRecord): { title: string; text: string };
  /**
   * What the owner is told where another channel of the gateway (of any account) holds the number or community granted
   * (`profile.messengerId`), checked again as the grant is stored: one messenger account is one channel's.
   */
  heldElsewhere: string;
  /** Undoes, best effort, what the grant registered with the platform, where another channel took it meanwhile. */
  release?(channel: ChannelRecord, granted: AuthorizationGrant): Promise<void>;
  /** The channel the owner comes back for, when the address carries a state the gateway signed and still takes. */
  channelOf(query: Record<string, unknown>): { channelId: string } | { refused: string };
  /**
   * What the owner granted for the channel (it is asked of the platform: a code exchanged, the account found), or why
   * nothing was: the state is not the channel's current one, the owner declined, the platform refused. Throws where
   * the platform could not be reached (nothing changed: the owner may come back again).
   */
  grant(channel: ChannelRecord, query: Record<string, unknown>): Promise<AuthorizationGrant | { refused: string } | { choose: AuthorizationChoice }>;
}

/** `choose`: a step on the way (the owner picks among choices, each leading back to the platform); nothing changed. */
export type AuthorizationOutcome = { connected: ChannelRecord } | { refused: string } | { choose: AuthorizationChoice };

const superseded = 'This link was used already, or the channel was connected again since: open the channel’s current link';

/**
 * The owner came back from the platform's page (`GET /hooks/<transport>/authorized`): the channel the state names,
 * still waiting for it at that very address (`init` with that `url`), gets what the platform granted, and becomes
 * `active` with `channel.status_update` (and `channel.waba_tier_update` with a tier). The platform is asked outside
 * any transaction; the channel is then changed only if no other return or reinit changed it meanwhile, so a state
 * is taken once, and only if no other channel holds the number or community granted (checked under a lock of it, so
 * two channels connecting it at once do not both win). Anything else leaves the channel as it was, and says why.
 */
export async function authorizationReturned(deps: ChannelDeps, returning: AuthorizationReturn, query: Record<string, unknown>): Promise<AuthorizationOutcome> {
  const which = returning.channelOf(query);
  if ('refused' in which) return which;
  const channel = await deps.store.channels.getById(which.channelId);
  if (!channel || channel.transport !== returning.transport || channel.state.status !== 'init' || channel.authUrl === null) return { refused: superseded };
  const granted = await returning.grant(channel, query);
  if ('refused' in granted || 'choose' in granted) return granted;
  const messengerId = granted.profile.messengerId;
  const outcome = await deps.store.transaction(async (tx): Promise<AuthorizationOutcome> => {
    const current = await tx.channels.getByIdForUpdate(channel.id);
    if (!current || current.state.status !== 'init' || current.authUrl !== (granted.takenAt ?? channel.authUrl)) return { refused: superseded };
    if (messengerId) {
      // Two channels connecting the same number or community at once: the second waits here, then finds the first.
      await tx.channels.lockMessengerId(returning.transport, messengerId);
      if ((await tx.channels.listByMessengerId(returning.transport, messengerId)).some((c) => c.id !== channel.id)) return { refused: returning.heldElsewhere };
    }
    const next = await applyTrigger(tx, deps, current, 'redirect_completed', {
      ...granted.profile,
      ...(granted.tier ? { tier: granted.tier } : {}),
      credentials: deps.cipher.seal(granted.credentials),
      hookFingerprint: granted.hookFingerprint ?? null,
      authUrl: null,
    });
    if (granted.tier) await channelTierEvent(tx, deps.clock, next, granted.tier);
    return { connected: next };
  });
  if ('refused' in outcome && outcome.refused === returning.heldElsewhere && returning.release) await returning.release(channel, granted).catch(() => {});
  return outcome;
}
