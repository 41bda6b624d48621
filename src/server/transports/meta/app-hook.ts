import type { Transport } from '../../../contract/channels.ts';
import type { MessengerAppHook } from '../../core/messages/ports.ts';
import { signedByApp, verifiedChallenge } from './webhook-signature.ts';

/** What one entry of a post came to: taken, taken and dropped, or to be posted again. */
export type EntryOutcome = 'accepted' | 'ignored' | 'unavailable';

/** The worse of two outcomes: one that must come again makes the whole post come again. */
export const worse = (a: EntryOutcome, b: EntryOutcome): EntryOutcome =>
  a === 'unavailable' || b === 'unavailable' ? 'unavailable' : a === 'accepted' || b === 'accepted' ? 'accepted' : 'ignored';

/**
 * The callback address of one product of the Meta app (Instagram's, WhatsApp's): Meta's check of the address when it
 * is saved in the dashboard, then each post checked against the app's signature before anything of it is read, its
 * `object` this product's (an object of another product, should the app be subscribed to it, is not this driver's),
 * and each of its `entry` read in turn; the post is answered as its worst entry.
 */
export function metaAppHook(options: {
  transport: Transport;
  object: string;
  verifyToken: string;
  appSecret: string;
  receiveEntry(entry: unknown): Promise<EntryOutcome>;
}): MessengerAppHook {
  return {
    transport: options.transport,
    verify: (query) => verifiedChallenge(query, options.verifyToken),
    async receive({ headers, rawBody, json }) {
      if (!signedByApp(headers, rawBody, options.appSecret)) return 'unauthorized';
      const body = json();
      if (typeof body !== 'object' || body === null) return 'ignored';
      const { object, entry } = body as { object?: unknown; entry?: unknown };
      if (object !== options.object || !Array.isArray(entry)) return 'ignored';
      let outcome: EntryOutcome = 'ignored';
      for (const one of entry) outcome = worse(outcome, await options.receiveEntry(one));
      return outcome;
    },
  };
}
