import type { AuthorizationReturn } from '../../core/channels/authorization-return.ts';
import { credentialRefusals } from '../../../contract/credential-fields.ts';
import { exchangeLoginCode } from '../meta/login-code.ts';
import type { LoginChoiceDeps } from '../meta/login-choice.ts';
import { loginDialogUrl } from '../meta/login-dialog.ts';
import { metaLoginReturn } from '../meta/login-return.ts';
import { newState } from '../meta/login-state.ts';
import type { InstagramDeps } from './account.ts';
import { connectInstagram, longLivedToken } from './connect.ts';
import { accountTakenByAnother, freePages, type FreePage } from './login-pages.ts';
import type { Pacers } from './people.ts';

/**
 * Connecting an Instagram account by Facebook Login, for a channel created as `instagram` without credentials (or
 * reinit without them): the channel's `url` is Meta's login dialog for the app, asking what Instagram messaging
 * needs; the owner comes back (`/hooks/instAPI/authorized`) with a code, exchanged for their user token, then for a
 * long-lived one; the pages they shared with an Instagram business account no other channel has are listed
 * (login-pages.ts). One is connected at once; several are offered on a page of the gateway's (meta/login-choice.ts).
 * Connecting one is what creating an instAPI channel with the four fields does (connect.ts: permissions, the page's
 * token, its Instagram account, the page's subscription), so the channel is then an instAPI channel like any other.
 */

/** What the login asks of the person (Meta's Instagram messaging with Facebook Login; `pages_show_list` lists their pages). */
export const LOGIN_SCOPES = ['instagram_basic', 'instagram_manage_messages', 'pages_manage_metadata', 'pages_show_list', 'business_management'] as const;

/** What the login needs besides the driver's: where the channel's address is kept, and the app's login settings. */
export interface InstagramLoginDeps extends LoginChoiceDeps {
  /** A Facebook Login for Business configuration asking the same permissions (INSTAGRAM_LOGIN_CONFIG_ID), else `scope`. */
  configId: string | null;
}

/** What the owner coming back from Meta's login is told when nothing changed, by cause. */
export const loginRefusals = {
  forged: 'This link is not one of this gateway’s: open the channel’s link again',
  expired: 'This link has expired: reconnect the channel (reinit) for a new one',
  choiceExpired: 'This page of accounts has expired: open the channel’s link again to choose an account',
  used: 'This link was used already, or the channel was connected again since: open the channel’s current link',
  declined: 'The login was not completed: open the channel’s link again to connect the Instagram account',
  codeRefused: 'Meta did not accept the login (it may have been used already, or be too old): open the channel’s link again',
  noAccount: 'None of the Facebook pages shared has an Instagram business account that is not connected to another channel: open the channel’s link again and share the page linked to the account',
  accountTaken: 'This Instagram account is connected to another channel already: go back and choose another, or open the channel’s link again',
  permissions: 'The permissions Instagram messaging needs were not all given: open the channel’s link again and allow them',
} as const;

/** A new address of Meta's login dialog for the channel. */
export function instagramLoginUrl(deps: Pick<InstagramDeps, 'appId'>, login: InstagramLoginDeps, channelId: string): string {
  return loginDialogUrl({
    appId: deps.appId,
    publicUrl: login.publicUrl,
    transport: 'instAPI',
    state: newState(login.stateKey, channelId, login.clock.now()),
    asked: login.configId ? { configId: login.configId } : { scope: LOGIN_SCOPES },
  });
}

/** The return from Meta's login dialog, and from the page of accounts to choose from, for `GET /hooks/instAPI/authorized`. */
export function instagramLoginReturn(deps: InstagramDeps, login: InstagramLoginDeps, pacers: Pacers, fingerprint: string): AuthorizationReturn {
  return {
    heldElsewhere: loginRefusals.accountTaken,
    connectedPage: (channel) => ({ title: 'Instagram account connected', text: `The Instagram account @${channel.username ?? ''} (${channel.name ?? ''}) is connected. You can close this window.` }),
    ...metaLoginReturn<FreePage>(login, {
      transport: 'instAPI',
      refusals: { ...loginRefusals, taken: loginRefusals.accountTaken },
      nextAddress: (channelId) => instagramLoginUrl(deps, login, channelId),
      async granted(channel, code) {
        const exchanged = await exchangeLoginCode({ ...deps, publicUrl: login.publicUrl }, 'instAPI', code);
        if ('refused' in exchanged) return { refused: loginRefusals.codeRefused };
        // Long-lived, so that it still works while the owner chooses, and the page token derived from it does not expire.
        const token = await longLivedToken(deps, exchanged.token);
        if (typeof token !== 'string') return { refused: loginRefusals.codeRefused };
        const pages = await freePages(deps, channel, token);
        return pages.length === 0 ? { refused: loginRefusals.noAccount } : { token, options: pages };
      },
      heldByAnother: (channelId, page) => accountTakenByAnother(deps, channelId, page.inst_id),
      // The page chosen becomes the channel's, as the four fields would make it.
      async connect(channel, token, page) {
        const outcome = await connectInstagram(deps, pacers, channel.id, { username: page.username, page_id: page.id, inst_id: page.inst_id, user_token: token });
        if (outcome.kind === 'refused') {
          return { refused: outcome.message === credentialRefusals.lacksInstagramPermissions ? loginRefusals.permissions : `Meta did not accept the account: its ${outcome.field} ${outcome.message}` };
        }
        if (outcome.kind !== 'ready') return { refused: loginRefusals.codeRefused };
        return { profile: outcome.profile, tier: null, credentials: outcome.credentials ?? {}, hookFingerprint: fingerprint };
      },
      choicePage: {
        title: 'Choose an Instagram account',
        text: 'The Facebook pages you shared have several Instagram business accounts that are not connected to another channel. Choose the one this channel connects.',
        label: (p) => `@${p.username} · ${p.name || 'Facebook page'}`,
      },
    }),
  };
}
