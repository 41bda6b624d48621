import type { AuthorizationGrant, AuthorizationReturn } from '../../core/channels/authorization-return.ts';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import { chosenOption, moveAddress, offerChoice, type LoginChoiceDeps } from './login-choice.ts';
import type { MetaLoginTransport } from './login-dialog.ts';
import { checkState, isChoiceState, stateOf } from './login-state.ts';

/**
 * The return from Meta's login dialog (`GET /hooks/<transport>/authorized`), shared by the transports a Meta login
 * connects (WhatsApp's numbers, Instagram's accounts): the state checked (the channel's current address's, signed,
 * not expired), the code exchanged for what it grants (`granted`: a token and the options it opens), one option
 * connected at once, several offered on a page of choices (login-choice.ts), and the option chosen there connected
 * the same way. A choice is taken before Meta is asked, so a link followed twice connects once; Meta refusing or
 * failing gives the page back.
 */

/** What the owner is told when nothing changed, by cause. */
export interface LoginRefusals {
  forged: string;
  expired: string;
  choiceExpired: string;
  used: string;
  declined: string;
  /** The option chosen was connected by another channel meanwhile. */
  taken: string;
}

export interface MetaLoginFlow<T extends { id: string }> {
  transport: MetaLoginTransport;
  refusals: LoginRefusals;
  /** A new address of the login dialog for the channel. */
  nextAddress(channelId: string): string;
  /** What the code grants: the token and the options no other channel has (at least one), or why not. Throws where Meta could not be asked. */
  granted(channel: ChannelRecord, code: string): Promise<{ token: string; options: T[] } | { refused: string }>;
  /** Whether another channel than this one has the option now. */
  heldByAnother(channelId: string, option: T): Promise<boolean>;
  /** The option becomes the channel's, with Meta. Throws where Meta could not be asked. */
  connect(channel: ChannelRecord, token: string, option: T): Promise<AuthorizationGrant | { refused: string }>;
  choicePage: { title: string; text: string; label(option: T): string };
}

/** The parts of an AuthorizationReturn a login flow fills in the same way for every transport. */
export function metaLoginReturn<T extends { id: string }>(
  deps: LoginChoiceDeps,
  flow: MetaLoginFlow<T>,
): Pick<AuthorizationReturn, 'transport' | 'channelOf' | 'grant'> {
  const { refusals } = flow;
  return {
    transport: flow.transport,
    channelOf(query) {
      const checked = checkState(deps.stateKey, query.state, deps.clock.now());
      if (checked.ok) return { channelId: checked.channelId };
      return { refused: checked.why === 'expired' && isChoiceState(query.state) ? refusals.choiceExpired : refusals[checked.why] };
    },
    async grant(channel, query) {
      const checked = checkState(deps.stateKey, query.state, deps.clock.now());
      if (!checked.ok) return { refused: refusals[checked.why] };
      if (checked.chosen !== null) {
        // Chosen on the page: still offered to this channel, and still no other channel's.
        const chosen = chosenOption<T>(deps, channel, checked.nonce, checked.chosen);
        if ('refused' in chosen) return { refused: refusals[chosen.refused] };
        if (await flow.heldByAnother(channel.id, chosen.option)) return { refused: refusals.taken };
        const takenAt = await moveAddress(deps, channel.id, channel.authUrl, flow.nextAddress(channel.id));
        if (takenAt === null) return { refused: refusals.used };
        const giveBack = () => moveAddress(deps, channel.id, takenAt, channel.authUrl!);
        try {
          const granted = await flow.connect(channel, chosen.token, chosen.option);
          if ('refused' in granted) await giveBack();
          return 'refused' in granted ? granted : { ...granted, takenAt };
        } catch (err) {
          await giveBack().catch(() => {});
          throw err;
        }
      }
      // The state must be the channel's current one: one given before a reinit, or used already, is not.
      if (stateOf(channel.authUrl) !== query.state) return { refused: refusals.forged };
      const code = query.code;
      if (typeof code !== 'string' || code.length === 0 || code.length > 2048) return { refused: refusals.declined };
      const found = await flow.granted(channel, code);
      if ('refused' in found) return found;
      if (found.options.length === 1) return flow.connect(channel, found.token, found.options[0]!);
      return (await offerChoice(deps, channel, flow.transport, flow.nextAddress(channel.id), found, flow.choicePage)) ?? { refused: refusals.used };
    },
  };
}
