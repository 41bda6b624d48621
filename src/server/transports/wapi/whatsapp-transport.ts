import type { CallPacer } from '../call-pacer.ts';
import type { LiveTransport } from '../live-transport.ts';
import type { WhatsAppDeps } from './account.ts';
import { refreshTemplates, whatsappAccountChanges } from './account-changes.ts';
import { connectWhatsApp, whatsappSignupReturn } from './connect.ts';
import { letGoOfAccount } from './connect-number.ts';
import { whatsappMedia } from './media.ts';
import { whatsappMessaging } from './messaging.ts';
import { whatsappSubscriptionRegistrar } from './subscription.ts';
import { whatsappTemplatePlatform } from './template-submission.ts';
import { whatsappAppHook } from './webhook.ts';

/**
 * WhatsApp Business through Meta's Cloud API: a channel connects by Embedded Signup (its `url` is Meta's login
 * dialog, which sends the owner back to `/hooks/wapi/authorized`), and Meta's webhooks come to the app's address for
 * WhatsApp, `/hooks/whatsapp`. Each number's calls are paced.
 */
export function whatsappTransport(deps: WhatsAppDeps, pacer: CallPacer): LiveTransport {
  const registrar = whatsappSubscriptionRegistrar(deps, pacer, (channelId, signal) => refreshTemplates(deps, pacer, channelId, signal));
  const media = whatsappMedia(deps, pacer);
  return {
    connect: async (channelId) => connectWhatsApp(deps, channelId),
    disconnect: (channel) => letGoOfAccount(deps, pacer, channel.id, channel.credentials),
    messaging: whatsappMessaging(deps, pacer),
    registrar,
    authorization: whatsappSignupReturn(deps, pacer, registrar.fingerprint),
    templates: whatsappTemplatePlatform(deps, pacer),
    hooks: (messages) => ({
      app: { name: 'whatsapp', hook: whatsappAppHook({ ...deps, messages, mediaLink: media.link, accountChange: whatsappAccountChanges(deps, pacer) }) },
      files: ({ channelId, fileId, signature, range }) => media.open(channelId, fileId, signature, range),
    }),
  };
}
