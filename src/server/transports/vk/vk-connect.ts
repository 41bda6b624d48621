import { randomBytes } from 'node:crypto';
import type { AuthorizationGrant, AuthorizationReturn } from '../../core/channels/authorization-return.ts';
import type { ChannelRecord, ConnectOutcome } from '../../core/channels/ports.ts';
import { AppError } from '../../core/errors.ts';
import type { CallPacer } from '../call-pacer.ts';
import { CodeRefused, VkApiError, VkApiUnreachable } from './vk-api.ts';
import { callbackUrl, oursFor, registerCallbackServer, removeCallbackServers } from './vk-callback-server.ts';
import { isVkId, pacedCommunity, type CommunityCredentials, type VkDeps } from './vk-community.ts';
import { authorizeUrl, checkState, communityKeyOf, newNonce, nonceOf, returnAddress, signState, type Step } from './vk-oauth.ts';

/**
 * Connecting a VK community: the channel's `url` is VK's OAuth page for the owner (scope `groups`); back at
 * `/hooks/vk/authorized`, the communities they administer are listed (`groups.get` with `filter=admin`,
 * `extended=1`) on a page of the gateway's, each leading to VK's OAuth page for that community's key; back again, the
 * code is exchanged for the key, the community read (`groups.getById`), its confirmation code asked for
 * (`groups.getCallbackConfirmationCode`), and the gateway's Callback API server registered with a random secret.
 *
 * Each step's state is taken once: the channel's address carries a nonce, every state of the connect carries the
 * nonce of the address it came from, and each step taken (or refused) gives the channel an address with a new nonce,
 * so a state used before no longer matches. The community's step is taken before VK is asked anything (given back
 * only where VK failed on the way), so the same link followed twice registers the server once, with the secret the
 * channel keeps. The last step, once granted, leaves the channel with no address at all. A community another channel
 * of the gateway holds (of any account, as a WhatsApp number is) is refused: VK would post its events to both.
 */

/** What the owner is told when nothing changed, by cause. */
export const refusals = {
  forged: 'This link is not one of this gateway’s: open the channel’s link again',
  expired: 'This link has expired: open the channel’s link again for a new one',
  used: 'This link was used already, or the channel was connected again since: open the channel’s current link',
  declined: 'The authorization was not given in VK: open the channel’s link again to connect the community',
  codeRefused: 'VK did not accept the authorization (it may have been used already, or be too old): open the channel’s link again',
  noCommunity: 'You administer no VK community: create one, or ask for the administrator’s role, then open the channel’s link again',
  noKey: 'VK gave no key for the community chosen: open the channel’s link again and allow access to the community',
  communityTaken: 'This VK community is connected to another channel already: open the channel’s link again and choose another, or delete the other channel first',
} as const;

/**
 * The servers being registered by this process, by channel: VK asks for the confirmation code as soon as a server is
 * added (inferred: VK's documentation does not say when), before the channel holds the code. Another process asked
 * meanwhile cannot answer; the server's status then is not `ok`, and the hook refresh registers it again once the
 * channel holds its code (see `grant`).
 */
export type PendingServers = Map<string, Pick<CommunityCredentials, 'confirmation' | 'secret'>>;

/** VK out of reach or failing: nothing changed, and the owner may come back again (the page says so). */
function unavailable(err: unknown, what: string): AppError {
  if (err instanceof VkApiUnreachable) return new AppError('SERVICE_UNAVAILABLE', 'VK could not be reached; try again');
  return new AppError('SERVICE_UNAVAILABLE', `VK refused ${what}: ${err instanceof Error ? err.message : String(err)}`);
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** The first step's address for the channel, under a new nonce. */
const firstStep = (deps: VkDeps, channelId: string): string =>
  authorizeUrl(deps.app, deps.publicUrl, { kind: 'user' }, signState(deps.stateKey, channelId, { kind: 'user' }, newNonce(), deps.clock.now()));

/** Creating a vk channel, or reconnecting one: it waits (`init`) at VK's OAuth page for its owner. */
export function connectVk(deps: VkDeps, channelId: string): ConnectOutcome {
  return { kind: 'redirect', url: firstStep(deps, channelId) };
}

/**
 * The channel's address becomes `next` (a first step's under a new nonce), if it still is `expected`: the state just
 * used is not taken again. Null where the channel changed meanwhile (another return, a reinit); else the new address.
 */
async function renewAddress(deps: VkDeps, channel: ChannelRecord, expected = channel.authUrl, next = firstStep(deps, channel.id)): Promise<string | null> {
  return deps.store.transaction(async (tx) => {
    const current = await tx.channels.getByIdForUpdate(channel.id);
    if (!current || current.state.status !== 'init' || current.authUrl !== expected) return null;
    await tx.channels.update({ ...current, authUrl: next });
    return next;
  });
}

/** Whether another channel of the gateway (of any account) holds the community: VK would post its events to both. */
const heldByAnother = async (deps: VkDeps, channelId: string, groupId: string): Promise<boolean> =>
  (await deps.channels.listByMessengerId('vk', groupId)).some((c) => c.id !== channelId);

/** The owner came back from their own authorization: the communities they administer, to choose from. */
async function chooseCommunity(deps: VkDeps, channel: ChannelRecord, code: string, nonce: string) {
  let token: string;
  try {
    const answer = await deps.api.exchange(code, returnAddress(deps.publicUrl));
    if (typeof answer.access_token !== 'string') return { refused: refusals.codeRefused };
    token = answer.access_token;
  } catch (err) {
    if (err instanceof CodeRefused) return { refused: refusals.codeRefused };
    throw unavailable(err, 'the code');
  }
  let items: unknown[];
  try {
    const listed = await deps.api.call<{ items?: unknown }>('groups.get', { filter: 'admin', extended: 1, count: 1000 }, token);
    items = Array.isArray(listed?.items) ? listed.items : [];
  } catch (err) {
    throw unavailable(err, 'groups.get');
  }
  const communities = items.filter((g): g is { id: number; name: string } => isObject(g) && typeof g.id === 'number' && typeof g.name === 'string');
  if (communities.length === 0) return { refused: refusals.noCommunity };
  return {
    choose: {
      title: 'Choose a VK community',
      text: 'Choose the community whose messages this channel carries; VK then asks you to allow the gateway access to it.',
      options: communities.map((g) => {
        const step: Step = { kind: 'group', groupId: String(g.id) };
        return { label: g.name, url: authorizeUrl(deps.app, deps.publicUrl, step, signState(deps.stateKey, channel.id, step, nonce, deps.clock.now())) };
      }),
    },
  };
}

/** The community's key, its name, its confirmation code, and the gateway's server registered with a new secret. */
async function grantCommunity(deps: VkDeps, pacer: CallPacer, pending: PendingServers, fingerprint: string, channel: ChannelRecord, code: string, groupId: string): Promise<AuthorizationGrant | { refused: string }> {
  let key: string | null;
  try {
    key = communityKeyOf(await deps.api.exchange(code, returnAddress(deps.publicUrl)), groupId);
  } catch (err) {
    if (err instanceof CodeRefused) return { refused: refusals.codeRefused };
    throw unavailable(err, 'the code');
  }
  if (key === null) return { refused: refusals.noKey };
  const api = pacedCommunity(deps, pacer, { access_token: key, group_id: groupId });
  // Letters and digits only, within the 50 characters VK's settings page takes for a server's secret key.
  const secret = randomBytes(20).toString('hex');
  try {
    const found = await api.call<unknown>('groups.getById', { group_id: groupId });
    const groups = Array.isArray(found) ? found : isObject(found) && Array.isArray(found.groups) ? found.groups : [];
    const group = groups.find((g): g is Record<string, unknown> => isObject(g) && String(g.id) === groupId);
    const codeAnswer = await api.call<{ code?: unknown }>('groups.getCallbackConfirmationCode', { group_id: groupId });
    if (typeof codeAnswer?.code !== 'string' || codeAnswer.code.length === 0) throw new VkApiUnreachable('VK gave no confirmation code');
    const confirmation = codeAnswer.code;
    pending.set(channel.id, { confirmation, secret });
    let status: string | null;
    try {
      status = await registerCallbackServer(api, groupId, callbackUrl(deps.publicUrl, channel.id), secret, oursFor(deps, channel.id));
    } finally {
      pending.delete(channel.id);
    }
    const name = group && typeof group.name === 'string' && group.name ? group.name : `VK community ${groupId}`;
    const username = group && typeof group.screen_name === 'string' && group.screen_name ? group.screen_name : null;
    const credentials: CommunityCredentials = { access_token: key, group_id: groupId, confirmation, secret };
    return {
      profile: { messengerId: groupId, messengerAccountId: groupId, name, username },
      tier: null,
      credentials: { ...credentials },
      // A server VK could not confirm (its confirmation went to another process) is registered again by the hook
      // refresh, which then finds the code with the channel.
      ...(status === 'ok' ? { hookFingerprint: fingerprint } : {}),
    };
  } catch (err) {
    if (err instanceof VkApiError && err.code === 15) return { refused: refusals.noKey };
    throw unavailable(err, 'the community’s setup');
  }
}

/** The return from VK's OAuth pages, for `GET /hooks/vk/authorized`. */
export function vkAuthorizationReturn(deps: VkDeps, pacer: CallPacer, pending: PendingServers, fingerprint: string): AuthorizationReturn {
  return {
    transport: 'vk',
    platform: 'VK',
    heldElsewhere: refusals.communityTaken,
    connectedPage: (channel) => ({ title: 'Community connected', text: `The VK community “${channel.name ?? ''}” (id ${channel.messengerId ?? ''}) is connected. You can close this window.` }),
    channelOf(query) {
      const checked = checkState(deps.stateKey, query.state, deps.clock.now());
      return checked.ok ? { channelId: checked.channelId } : { refused: refusals[checked.why] };
    },
    async grant(channel, query) {
      const checked = checkState(deps.stateKey, query.state, deps.clock.now());
      if (!checked.ok) return { refused: refusals[checked.why] };
      // The state must carry the nonce of the channel's current address: one used before no longer does.
      if (nonceOf(channel.authUrl) !== checked.nonce) return { refused: refusals.used };
      const code = query.code;
      const declined = typeof code !== 'string' || code.length === 0 || code.length > 512;
      if (checked.step.kind === 'user') {
        // Taken once, whatever comes of it: the choice page's states carry the new address's nonce.
        if (!(await renewAddress(deps, channel))) return { refused: refusals.used };
        if (declined) return { refused: refusals.declined };
        const renewed = await deps.channels.getById(channel.id);
        const nonce = nonceOf(renewed?.authUrl ?? null);
        if (nonce === null) return { refused: refusals.used };
        return chooseCommunity(deps, channel, code as string, nonce);
      }
      if (!isVkId(checked.step.groupId)) return { refused: refusals.forged };
      const groupId = checked.step.groupId;
      // The step is taken before VK is asked anything: a second return with the same state (the link followed twice)
      // stops here, before it registers the server with a secret of its own. A refused step stays taken: the channel
      // goes back to its first step under the new nonce.
      const takenAt = await renewAddress(deps, channel);
      if (takenAt === null) return { refused: refusals.used };
      if (declined) return { refused: refusals.declined };
      if (await heldByAnother(deps, channel.id, groupId)) return { refused: refusals.communityTaken };
      try {
        const granted = await grantCommunity(deps, pacer, pending, fingerprint, channel, code as string, groupId);
        return 'refused' in granted ? granted : { ...granted, takenAt };
      } catch (err) {
        // VK out of reach: nothing changed, and the step is given back, so the same link is taken once VK answers.
        await renewAddress(deps, channel, takenAt, channel.authUrl!).catch(() => null);
        throw err;
      }
    },
    async release(channel, granted) {
      // Connected to another channel meanwhile: the server registered for this channel goes again.
      const community = granted.credentials as unknown as CommunityCredentials;
      await removeCallbackServers(pacedCommunity(deps, pacer, community), community.group_id, oursFor(deps, channel.id));
    },
  };
}
