import type { AuthorizationChoice } from '../../core/channels/authorization-return.ts';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import { chosenOption, moveAddress, offerChoice } from '../meta/login-choice.ts';
import { newState } from '../meta/login-state.ts';
import type { WhatsAppDeps } from './account.ts';
import { refusals } from './refusals.ts';
import { signupUrl } from './signup.ts';
import type { FreeNumber } from './signup-grant.ts';

/**
 * A WhatsApp Business Account with several numbers no other channel has: the owner chooses one on a page of the
 * gateway's (meta/login-choice.ts), and the business token waits with the channel meanwhile. A link whose number was
 * connected by another channel meanwhile is refused and leaves the page as it was, to choose another; the number
 * connected leaves the channel `active`, and any link of the page then finds it connected already. A choice is taken
 * before Meta is asked, so a link followed twice registers the number once, with the PIN the channel keeps.
 */

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

/** A new address of the login dialog for the channel. */
const nextAddress = (deps: WhatsAppDeps, channelId: string) =>
  signupUrl({ appId: deps.appId, signupConfigId: deps.signupConfigId, publicUrl: deps.publicUrl, state: newState(deps.stateKey, channelId, deps.clock.now()) });

/**
 * The page of numbers to choose from; the channel waits for the choice at a new address, with the token sealed. Refused
 * when the channel changed meanwhile (another return, a reinit).
 */
export async function offerNumbers(deps: WhatsAppDeps, channel: ChannelRecord, token: string, numbers: FreeNumber[]): Promise<{ choose: AuthorizationChoice } | { refused: string }> {
  const offered = await offerChoice(deps, channel, 'wapi', nextAddress(deps, channel.id), { token, options: numbers }, {
    title: 'Choose a WhatsApp number',
    text: 'The WhatsApp Business Account you shared has several numbers that are not connected to another channel. Choose the one this channel connects.',
    label: numberLabel,
  });
  return offered ?? { refused: refusals.used };
}

/** The number a link of the page names, with the token waiting for it (see chosenOption). */
export function chosenNumber(deps: WhatsAppDeps, channel: ChannelRecord, nonce: string, phoneNumberId: string): { token: string; number: FreeNumber } | { refused: string } {
  const chosen = chosenOption<FreeNumber>(deps, channel, nonce, phoneNumberId);
  return 'refused' in chosen ? { refused: refusals[chosen.refused] } : { token: chosen.token, number: chosen.option };
}

/** The page's links are no longer taken: the channel moves on to a new address. Null where it changed meanwhile. */
export const takeChoice = (deps: WhatsAppDeps, channel: ChannelRecord): Promise<string | null> => moveAddress(deps, channel.id, channel.authUrl, nextAddress(deps, channel.id));

/** The page's address back, where the channel is still at the one taking the choice gave it. */
export async function giveBack(deps: WhatsAppDeps, channel: ChannelRecord, takenAt: string): Promise<void> {
  await moveAddress(deps, channel.id, takenAt, channel.authUrl!);
}
