import type { AuthorizationChoice } from '../../core/channels/authorization-return.ts';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import type { WhatsAppDeps } from './account.ts';
import { refusals } from './refusals.ts';
import { choiceState, choiceUrl, newState, nonceOf, signupUrl } from './signup.ts';
import type { FreeNumber } from './signup-grant.ts';

/**
 * A WhatsApp Business Account with several numbers no other channel has: the owner chooses one on a page of the
 * gateway's. Meta's code is taken once, so the business token it was worth waits with the channel, sealed with its
 * credentials (`signup`: the token and the numbers offered), until a number is chosen or another signup replaces it;
 * connecting the number chosen leaves the channel with that number's credentials only.
 *
 * The page's links come back to the gateway with a state of their own (signed, expiring, naming the channel, the
 * number and the nonce of the channel's address when the page was made). Making the page gives the channel a new
 * address, so the login dialog's state just used is not taken again, and a reinit or another signup since makes the
 * page's links stale. A link whose number was connected by another channel meanwhile is refused and leaves the page
 * as it was, to choose another; the number connected leaves the channel `active`, and any link of the page then finds
 * it connected already. A choice is taken before Meta is asked (the channel's address moves on, `takeChoice`), so a
 * link followed twice registers the number once, with the PIN the channel keeps; Meta refusing or failing gives the
 * page back (`giveBack`).
 */

/** What waits with a channel while its owner chooses a number. */
interface PendingSignup {
  business_token: string;
  numbers: FreeNumber[];
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** Meta's quality rating of a number, in words. */
function qualityOf(rating: string | null): string {
  switch (rating?.toUpperCase()) {
    case 'GREEN':
      return 'quality high';
    case 'YELLOW':
      return 'quality medium';
    case 'RED':
      return 'quality low';
    default:
      return 'quality not rated yet';
  }
}

/** How a number reads on the page: as Meta writes it for people, its verified name, its quality rating. */
export const numberLabel = (n: FreeNumber): string => [n.display_phone_number ?? n.id, n.verified_name ?? 'no verified name', qualityOf(n.quality_rating)].join(' · ');

/**
 * The page of numbers to choose from; the channel waits for the choice at a new address, with the token sealed. Refused
 * when the channel changed meanwhile (another return, a reinit).
 */
export async function offerNumbers(deps: WhatsAppDeps, channel: ChannelRecord, token: string, numbers: FreeNumber[]): Promise<{ choose: AuthorizationChoice } | { refused: string }> {
  const now = deps.clock.now();
  const address = signupUrl({ appId: deps.appId, signupConfigId: deps.signupConfigId, publicUrl: deps.publicUrl, state: newState(deps.stateKey, channel.id, now) });
  const nonce = nonceOf(address)!;
  const pending: PendingSignup = { business_token: token, numbers };
  const renewed = await deps.store.transaction(async (tx) => {
    const current = await tx.channels.getByIdForUpdate(channel.id);
    if (!current || current.state.status !== 'init' || current.authUrl !== channel.authUrl) return false;
    const kept = current.credentials ? deps.cipher.open(current.credentials) : {};
    await tx.channels.update({ ...current, authUrl: address, credentials: deps.cipher.seal({ ...kept, signup: pending }) });
    return true;
  });
  if (!renewed) return { refused: refusals.used };
  return {
    choose: {
      title: 'Choose a WhatsApp number',
      text: 'The WhatsApp Business Account you shared has several numbers that are not connected to another channel. Choose the one this channel connects.',
      options: numbers.map((n) => ({ label: numberLabel(n), url: choiceUrl(deps.publicUrl, choiceState(deps.stateKey, channel.id, nonce, n.id, now)) })),
    },
  };
}

/**
 * The number a link of the page names, with the token waiting for it: refused where the channel's address changed
 * since the page was made (the page is stale), or the channel holds no such number (not a page of this signup's).
 */
export function chosenNumber(deps: WhatsAppDeps, channel: ChannelRecord, nonce: string, phoneNumberId: string): { token: string; number: FreeNumber } | { refused: string } {
  if (nonceOf(channel.authUrl) !== nonce) return { refused: refusals.used };
  const pending = channel.credentials ? deps.cipher.open(channel.credentials).signup : undefined;
  if (!isObject(pending) || typeof pending.business_token !== 'string' || !Array.isArray(pending.numbers)) return { refused: refusals.used };
  const number = (pending.numbers as unknown[]).find((n): n is FreeNumber => isObject(n) && n.id === phoneNumberId);
  if (!number) return { refused: refusals.forged };
  return { token: pending.business_token, number };
}

/**
 * The channel's address, if still the page's (`channel.authUrl`), moves on under a new nonce, the token still waiting
 * with it: the page's links are no longer taken. The new address, or null where the channel changed meanwhile.
 */
export async function takeChoice(deps: WhatsAppDeps, channel: ChannelRecord): Promise<string | null> {
  const next = signupUrl({ appId: deps.appId, signupConfigId: deps.signupConfigId, publicUrl: deps.publicUrl, state: newState(deps.stateKey, channel.id, deps.clock.now()) });
  return moveAddress(deps, channel.id, channel.authUrl, next);
}

/** The page's address back, where the channel is still at the one taking the choice gave it. */
export async function giveBack(deps: WhatsAppDeps, channel: ChannelRecord, takenAt: string): Promise<void> {
  await moveAddress(deps, channel.id, takenAt, channel.authUrl!);
}

async function moveAddress(deps: WhatsAppDeps, channelId: string, expected: string | null, next: string): Promise<string | null> {
  return deps.store.transaction(async (tx) => {
    const current = await tx.channels.getByIdForUpdate(channelId);
    if (!current || current.state.status !== 'init' || current.authUrl !== expected) return null;
    await tx.channels.update({ ...current, authUrl: next });
    return next;
  });
}
