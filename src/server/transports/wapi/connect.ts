import type { AuthorizationReturn } from '../../core/channels/authorization-return.ts';
import type { ConnectOutcome } from '../../core/channels/ports.ts';
import type { CallPacer } from '../call-pacer.ts';
import { metaLoginReturn } from '../meta/login-return.ts';
import { newState } from '../meta/login-state.ts';
import type { WhatsAppDeps } from './account.ts';
import { connectNumber } from './connect-number.ts';
import { numberLabel } from './number-choice.ts';
import { refusals } from './refusals.ts';
import { signupUrl } from './signup.ts';
import { signupOf, takenByAnother, type FreeNumber } from './signup-grant.ts';

/**
 * Connecting a WhatsApp number through Embedded Signup: the channel's `url` is Meta's login dialog; the owner comes
 * back with a code (`/hooks/wapi/authorized`, meta/login-return.ts), which is exchanged for the business's token; the
 * accounts granted and their numbers no other channel has are found (signup-grant.ts). One such number is connected
 * at once (connect-number.ts); several are offered on a page of the gateway's, and the one the owner chooses is
 * connected the same way; none leaves the channel as it was.
 */

/** A new address of Meta's login dialog for the channel, whose state names it and expires. */
const signupAddress = (deps: WhatsAppDeps, channelId: string) =>
  signupUrl({ appId: deps.appId, signupConfigId: deps.signupConfigId, publicUrl: deps.publicUrl, state: newState(deps.stateKey, channelId, deps.clock.now()) });

/**
 * Creating a wapi channel, or reinit: the channel waits (`init`) at a new address of Meta's login dialog; an address
 * given before stops being taken. Nothing is asked of Meta yet.
 */
export function connectWhatsApp(deps: WhatsAppDeps, channelId: string): ConnectOutcome {
  return { kind: 'redirect', url: signupAddress(deps, channelId) };
}

/** The return from Meta's login dialog, and from the page of numbers to choose from, for `GET /hooks/wapi/authorized`. */
export function whatsappSignupReturn(deps: WhatsAppDeps, pacer: CallPacer, fingerprint: string): AuthorizationReturn {
  return {
    heldElsewhere: refusals.numberTaken,
    ...metaLoginReturn<FreeNumber>(deps, {
      transport: 'wapi',
      refusals: { ...refusals, taken: refusals.numberTaken },
      nextAddress: (channelId) => signupAddress(deps, channelId),
      async granted(channel, code) {
        const found = await signupOf(deps, channel, code);
        return 'refused' in found ? found : { token: found.token, options: found.numbers };
      },
      heldByAnother: (channelId, number) => takenByAnother(deps, channelId, number.id),
      async connect(channel, token, number) {
        const granted = await connectNumber(deps, pacer, channel, token, number);
        return 'refused' in granted ? granted : { ...granted, hookFingerprint: fingerprint };
      },
      choicePage: {
        title: 'Choose a WhatsApp number',
        text: 'The WhatsApp Business Account you shared has several numbers that are not connected to another channel. Choose the one this channel connects.',
        label: numberLabel,
      },
    }),
  };
}
