import type { MessengerPeer } from '../../core/messages/peers.ts';
import { platformReports } from '../../core/messages/platform-reports.ts';
import type { MessageDeps, MessengerAppHook } from '../../core/messages/ports.ts';
import { metaAppHook, type EntryOutcome } from '../meta/app-hook.ts';
import type { InstagramDeps } from './account.ts';
import { PeerLookupFailed, peerResolver, type Pacers } from './people.ts';
import { happeningsOf, isMetaId, reportsOf } from './webhook-events.ts';

type Outcome = EntryOutcome;

export { signatureOf } from '../meta/webhook-signature.ts';


/**
 * Meta's webhooks for Instagram, at the app's one callback address (`/hooks/instagram`), where Meta posts the
 * events of every account the app serves, batched: each `entry` is one account's (its id, the channel's
 * `messenger_id`), routed to the channel that has it. A post is answered only once all it says is recorded: Meta
 * posts it again until a 200 (at once, then less and less often; a callback failing for hours may cost the app its
 * subscription). So a post whose signature (`X-Hub-Signature-256`, over the raw bytes, compared in constant time) is
 * not the app's is a 401 before anything is read; and an entry of an account no channel has (not stored yet, deleted,
 * or never connected here) or of a channel switched off is taken and dropped, never failed: one account's failure
 * would fail every other account's events in the same post, and a failing callback would put the whole app at risk.
 * Only what passes is asked for again (503): a new customer's name Meta could not give now, and an echo of the
 * account's own message while a send of its chat is under way (see platformReports). An entry's events are recorded
 * in one transaction; those recorded before a 503 are found again when Meta posts the entry again.
 */
export function instagramAppHook(deps: InstagramDeps & { messages: MessageDeps; pacers: Pacers }): MessengerAppHook {
  const people = peerResolver(deps, deps.pacers, deps.messages.clock);

  async function receiveEntry(entry: unknown): Promise<Outcome> {
    if (typeof entry !== 'object' || entry === null) return 'ignored';
    const { id: accountId, messaging } = entry as { id?: unknown; messaging?: unknown };
    if (!isMetaId(accountId)) return 'ignored';
    const happenings = happeningsOf(accountId, messaging);
    if (happenings.length === 0) return 'ignored';
    // One account belongs in one channel: should two hold it, the active one connected (or changed) last takes it.
    const channel = (await deps.channels.listByMessengerId('instAPI', accountId)).find((c) => c.state.status === 'active');
    if (!channel) return 'ignored';
    const named = new Map<string, MessengerPeer>();
    for (const peerId of new Set(happenings.map((h) => h.peerId))) {
      // Meta is asked who a person is only for what they wrote (or the account wrote to them): a read or a
      // deletion concerns messages recorded, and so a person known already.
      const ask = happenings.some((h) => h.peerId === peerId && h.kind === 'message');
      let person: MessengerPeer | null | 'revoked';
      try {
        person = await people.resolve(channel, peerId, ask);
      } catch (err) {
        if (err instanceof PeerLookupFailed) return 'unavailable';
        throw err;
      }
      if (person === 'revoked') return 'ignored';
      if (person) named.set(peerId, person);
    }
    const reports = reportsOf(happenings, named);
    if (reports.length === 0) return 'ignored';
    const outcome = await platformReports(deps.messages, channel.id, reports);
    return outcome === 'recorded' ? 'accepted' : outcome === 'switched_off' ? 'ignored' : 'unavailable';
  }

  // Other objects (a page's own Messenger events, should the app be subscribed to them) are not this driver's.
  return metaAppHook({ transport: 'instAPI', object: 'instagram', verifyToken: deps.verifyToken, appSecret: deps.appSecret, receiveEntry });
}
