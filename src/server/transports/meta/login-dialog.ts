import { GRAPH_API_VERSION } from './graph-api.ts';

/**
 * Meta's login dialog, as the channels of one Meta app open it (WhatsApp's Embedded Signup, Instagram's Facebook
 * Login). Documented (Meta's "Manually Build a Login Flow"): `client_id`, `redirect_uri` (which must be listed among
 * the app's valid OAuth redirect URIs, and is given again when the code is exchanged), `state` (given back as it
 * was), `response_type=code`; then either `config_id`, a Facebook Login for Business configuration (which names
 * the permissions asked; `override_default_response_type=true` asks for a code even where the configuration says
 * otherwise), or `scope`, the permissions asked, comma-separated.
 */

/** Meta's login dialog. */
export const LOGIN_DIALOG = `https://www.facebook.com/${GRAPH_API_VERSION}/dialog/oauth`;

/** The transports whose channels come back from Meta's login dialog. */
export type MetaLoginTransport = 'wapi' | 'instAPI';

/** Where Meta sends the owner back to (the same for every channel of the transport: the state names the channel). */
export const loginReturnAddress = (publicUrl: string, transport: MetaLoginTransport): string => `${publicUrl}/hooks/${transport}/authorized`;

/** The address of Meta's login dialog for a channel, carrying its state, and its configuration or the permissions asked. */
export function loginDialogUrl(options: {
  appId: string;
  publicUrl: string;
  transport: MetaLoginTransport;
  state: string;
  asked: { configId: string } | { scope: readonly string[] };
}): string {
  const query = new URLSearchParams({ client_id: options.appId });
  if ('configId' in options.asked) query.set('config_id', options.asked.configId);
  query.set('response_type', 'code');
  if ('configId' in options.asked) query.set('override_default_response_type', 'true');
  else query.set('scope', options.asked.scope.join(','));
  query.set('redirect_uri', loginReturnAddress(options.publicUrl, options.transport));
  query.set('state', options.state);
  return `${LOGIN_DIALOG}?${query.toString()}`;
}

/** The gateway's address for one choice of its page on the way back: the return, with the choice's state. */
export const choiceUrl = (publicUrl: string, transport: MetaLoginTransport, state: string): string =>
  `${loginReturnAddress(publicUrl, transport)}?${new URLSearchParams({ state }).toString()}`;
