import type { AuthorizationReturn } from '../../core/channels/authorization-return.ts';
import type { ConnectOutcome } from '../../core/channels/ports.ts';
import type { CallPacer } from '../call-pacer.ts';
import type { WhatsAppDeps } from './account.ts';
import { connectNumber } from './connect-number.ts';
import { chosenNumber, giveBack, offerNumbers, takeChoice } from './number-choice.ts';
import { refusals } from './refusals.ts';
import { checkState, isChoiceState, newState, stateOf } from '../meta/login-state.ts';
import { signupUrl } from './signup.ts';
import { signupOf, takenByAnother } from './signup-grant.ts';

/**
 * Connecting a WhatsApp number through Embedded Signup: the channel's `url` is Meta's login dialog; the owner comes
 * back with a code (`/hooks/wapi/authorized`), which is exchanged for the business's token; the accounts granted and
 * their numbers no other channel has are found (signup-grant.ts). One such number is connected at once
 * (connect-number.ts); several are offered on a page of the gateway's, and the one the owner chooses is connected the
 * same way (number-choice.ts); none leaves the channel as it was.
 */

/**
 * Creating a wapi channel, or reinit: the channel waits (`init`) at a new address of Meta's login dialog, whose state
 * names the channel and expires; an address given before stops being taken. Nothing is asked of Meta yet.
 */
export function connectWhatsApp(deps: WhatsAppDeps, channelId: string): ConnectOutcome {
  const state = newState(deps.stateKey, channelId, deps.clock.now());
  return { kind: 'redirect', url: signupUrl({ appId: deps.appId, signupConfigId: deps.signupConfigId, publicUrl: deps.publicUrl, state }) };
}

/** The return from Meta's login dialog, and from the page of numbers to choose from, for `GET /hooks/wapi/authorized`. */
export function whatsappSignupReturn(deps: WhatsAppDeps, pacer: CallPacer, fingerprint: string): AuthorizationReturn {
  const connected = async (...args: Parameters<typeof connectNumber>) => {
    const granted = await connectNumber(...args);
    return 'refused' in granted ? granted : { ...granted, hookFingerprint: fingerprint };
  };
  return {
    transport: 'wapi',
    heldElsewhere: refusals.numberTaken,
    channelOf(query) {
      const checked = checkState(deps.stateKey, query.state, deps.clock.now());
      if (checked.ok) return { channelId: checked.channelId };
      return { refused: checked.why === 'expired' && isChoiceState(query.state) ? refusals.choiceExpired : refusals[checked.why] };
    },
    async grant(channel, query) {
      const checked = checkState(deps.stateKey, query.state, deps.clock.now());
      if (!checked.ok) return { refused: refusals[checked.why] };
      if (checked.chosen !== null) {
        // A number chosen on the page: still offered to this channel, and still no other channel's.
        const chosen = chosenNumber(deps, channel, checked.nonce, checked.chosen);
        if ('refused' in chosen) return chosen;
        if (await takenByAnother(deps, channel.id, chosen.number.id)) return { refused: refusals.numberTaken };
        // The choice is taken before Meta is asked: a second click stops here, before it registers the number with a
        // PIN of its own. Meta refusing or failing gives it back, and the page stands to choose again.
        const takenAt = await takeChoice(deps, channel);
        if (takenAt === null) return { refused: refusals.used };
        try {
          const granted = await connected(deps, pacer, channel, chosen.token, chosen.number);
          if ('refused' in granted) await giveBack(deps, channel, takenAt);
          return 'refused' in granted ? granted : { ...granted, takenAt };
        } catch (err) {
          await giveBack(deps, channel, takenAt).catch(() => {});
          throw err;
        }
      }
      // The state must be the channel's current one: one given before a reinit, or used already, is not.
      if (stateOf(channel.authUrl) !== query.state) return { refused: refusals.forged };
      const code = query.code;
      if (typeof code !== 'string' || code.length === 0 || code.length > 2048) return { refused: refusals.declined };
      const found = await signupOf(deps, channel, code);
      if ('refused' in found) return found;
      if (found.numbers.length === 1) return connected(deps, pacer, channel, found.token, found.numbers[0]!);
      return offerNumbers(deps, channel, found.token, found.numbers);
    },
  };
}
