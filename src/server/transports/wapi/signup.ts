import { loginDialogUrl, loginReturnAddress } from '../meta/login-dialog.ts';

/**
 * The address a wapi channel's owner follows to connect a number: Meta's login dialog (meta/login-dialog.ts), opening
 * the app's Embedded Signup configuration (Facebook Login for Business), which sends the owner back to the gateway
 * with a code. Inferred: that the dialog at the versioned address opens Embedded Signup for a `config_id` of it, as
 * Meta's JavaScript SDK does with `FB.login`. The state is meta/login-state.ts's.
 */

/** Where Meta sends the owner back to (the same for every channel: the state names the channel). */
export const returnAddress = (publicUrl: string): string => loginReturnAddress(publicUrl, 'wapi');

/** The address of Meta's login dialog for the channel, carrying its state. */
export function signupUrl(options: { appId: string; signupConfigId: string; publicUrl: string; state: string }): string {
  return loginDialogUrl({ appId: options.appId, publicUrl: options.publicUrl, transport: 'wapi', state: options.state, asked: { configId: options.signupConfigId } });
}
