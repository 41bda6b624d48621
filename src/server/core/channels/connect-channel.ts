import { randomUUID } from 'node:crypto';
import { transportAliases, type Channel, type ChannelCreated, type TransportAlias } from '../../../contract/channel-api.ts';
import type { Transport } from '../../../contract/channels.ts';
import { validationError } from '../errors.ts';
import type { TransactionScope } from '../ports.ts';
import { channelLifecycleEvent, channelStatusEvent } from './channel-events.ts';
import { applyTrigger, channelNotFound, issueQr, withChannel, wrongStatus } from './channel-steps.ts';
import { toChannel } from './channel-view.ts';
import { assertCredentials } from './credentials.ts';
import type { ChannelDeps, ChannelRecord, ConnectOutcome } from './ports.ts';
import { legacyState, startingState, type ChannelTrigger } from './state-machine.ts';

type Accepted = Exclude<ConnectOutcome, { kind: 'refused' }>;

const triggerOf = (outcome: Accepted): ChannelTrigger =>
  ({ qr: 'qr_connect_started', ready: 'credentials_accepted', redirect: 'redirect_issued' } as const)[outcome.kind];

/**
 * Asks the messenger whether it accepts the credentials. Runs before any transaction opens: the driver does
 * its own I/O, and a refusal must leave nothing stored.
 */
async function askMessenger(
  deps: ChannelDeps,
  channelId: string,
  transport: Transport,
  credentials: Record<string, unknown>,
  previous?: ChannelRecord,
): Promise<Accepted> {
  assertCredentials(transport, credentials);
  const outcome = await deps.driver.connect({ channelId, transport, credentials, ...(previous ? { previous } : {}) });
  if (outcome.kind === 'refused') {
    throw validationError([{ field: `credentials.${outcome.field}`, message: outcome.message }], 'The messenger refused the credentials');
  }
  return outcome;
}

/**
 * What the channel keeps: the credentials the messenger gave in exchange for those given (an OAuth code's tokens,
 * a page's token for a user's), else those given.
 */
const sealed = (deps: ChannelDeps, given: Record<string, unknown>, outcome: Accepted): string | null => {
  const credentials = outcome.kind === 'ready' && outcome.credentials ? outcome.credentials : given;
  return Object.keys(credentials).length > 0 ? deps.cipher.seal(credentials) : null;
};


/** What follows an accepted connection: a first QR, or nothing more to do. */
async function afterAccepted(tx: TransactionScope, deps: ChannelDeps, channel: ChannelRecord, outcome: Accepted): Promise<ChannelRecord> {
  if (outcome.kind !== 'qr' || outcome.fromSession) return channel;
  return issueQr(tx, deps, channel, { shown: 1, issuedAt: deps.clock.now() });
}

function profileChanges(outcome: Accepted): Partial<ChannelRecord> {
  if (outcome.kind === 'ready') return { ...outcome.profile, authUrl: null, hookFingerprint: outcome.hookFingerprint ?? null };
  if (outcome.kind === 'redirect') return { authUrl: outcome.url };
  return { authUrl: null };
}

/**
 * POST /v2/channels and /bff/channels: the channel, its `channel.create` and first status, and (for QR
 * transports) its first QR. VK comes only from the channels frame (the API's schema does not take it).
 */
export async function createChannel(
  deps: ChannelDeps,
  accountId: string,
  given: { transport: Transport | TransportAlias; credentials: Record<string, unknown> },
): Promise<ChannelCreated[]> {
  // A transport named as the original service names it is the channel it makes (`instagram`: instAPI by login).
  const input = { ...given, transport: given.transport in transportAliases ? transportAliases[given.transport as TransportAlias] : (given.transport as Transport) };
  const id = randomUUID();
  const outcome = await askMessenger(deps, id, input.transport, input.credentials);
  const now = deps.clock.now();
  const channel: ChannelRecord = {
    id,
    accountId,
    transport: input.transport,
    state: startingState(triggerOf(outcome)),
    phone: null,
    username: null,
    messengerId: null,
    name: null,
    authUrl: null,
    tier: null,
    paid: true,
    credentials: sealed(deps, input.credentials, outcome),
    qr: null,
    pairing: null,
    createdAt: now,
    updatedAt: now,
    ...profileChanges(outcome),
  };
  const created = await deps.store.transaction(async (tx) => {
    await tx.channels.insert(channel);
    await channelLifecycleEvent(tx, deps.clock, channel, 'channel.create');
    await channelStatusEvent(tx, deps.clock, channel);
    return afterAccepted(tx, deps, channel, outcome);
  });
  if (outcome.kind === 'qr') outcome.committed?.();
  return [
    {
      channel_id: created.id,
      transport: created.transport,
      status: created.state.status,
      reason: created.state.reason,
      state: legacyState(created.state),
      ...(created.authUrl ? { url: created.authUrl } : {}),
    },
  ];
}

/**
 * POST /v2/channels/{id}/reinit and /bff/channels/{id}/reinit: connects an added channel again, whatever its
 * status. A VK channel is reconnected only in the channels frame (`inFrame`), as it is connected.
 */
export async function reinitChannel(
  deps: ChannelDeps,
  accountId: string,
  channelId: string,
  credentials: Record<string, unknown>,
  { inFrame = false }: { inFrame?: boolean } = {},
): Promise<Channel[]> {
  const existing = await deps.store.channels.get(accountId, channelId);
  if (!existing) throw channelNotFound(channelId);
  if (existing.transport === 'vk' && !inFrame) throw wrongStatus(existing, 'VK channels are reconnected through the channels iframe');
  if (!existing.paid) throw wrongStatus(existing, 'Channel is not paid');
  const outcome = await askMessenger(deps, channelId, existing.transport, credentials, existing);
  const reconnected = await withChannel(deps, accountId, channelId, async (tx, channel) => {
    const reconnecting = await applyTrigger(tx, deps, channel, triggerOf(outcome), {
      credentials: sealed(deps, credentials, outcome),
      qr: null,
      pairing: null,
      ...profileChanges(outcome),
    });
    return [toChannel(await afterAccepted(tx, deps, reconnecting, outcome), deps)];
  });
  // The account before is let go only now that the channel holds the new one (see `LetGo`).
  if (outcome.kind !== 'qr') await outcome.letGo?.().catch(() => {});
  else outcome.committed?.();
  return reconnected;
}
