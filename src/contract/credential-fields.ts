import type { Transport } from './channels.ts';

/** One credential a transport takes, with the words the API reference and the connect form show for it. */
export interface CredentialField {
  readonly name: string;
  readonly description: string;
}

/**
 * The `credentials` each transport takes when a channel is connected, as the interface lists them (VK takes
 * none: it connects by a redirect in the channels frame). Plain data: the request schemas are built from it,
 * and the connect frame reads its form from it without loading the schema library.
 */
export const credentialFields = {
  telegram: [{ name: 'telegram_token', description: 'Bot token from @BotFather.' }],
  maxbot: [{ name: 'access_token', description: 'Bot access token.' }],
  avito: [{ name: 'code', description: 'Authorization code.' }],
  instAPI: [
    { name: 'username', description: 'Instagram account name.' },
    { name: 'page_id', description: 'Facebook page id.' },
    { name: 'inst_id', description: 'Instagram business account id.' },
    { name: 'user_token', description: 'User access token, short- or long-lived: the gateway exchanges it for a long-lived one, so the page token it keeps does not expire.' },
  ],
  tgapi: [],
  wapi: [],
  whatsapp: [],
  viber: [],
  max: [],
  vk: [],
} as const satisfies Record<Transport, readonly CredentialField[]>;

/**
 * What the gateway says of a credential it refuses (a field error's `message`), whichever driver refuses it. The
 * connect frame says each of these in the screen's language, and its table must have them all.
 */
export const credentialRefusals = {
  required: 'is required',
  notAllowed: 'is not allowed',
  revoked: 'was revoked',
  notAcceptedByTelegram: 'was not accepted by Telegram',
  notAcceptedByMax: 'was not accepted by MAX',
  notAcceptedByAvito: 'was not accepted by Avito',
  notSandboxBotToken: 'is not a bot token of the form <digits>:<35 characters>',
  notTelegramBotToken: 'is not a bot token of the form <digits>:<letters, digits, _ and ->',
  notMaxBotToken: 'must be at least 20 characters without spaces',
  notAuthorizationCode: 'is not an authorization code',
  atSignInUsername: 'must not contain @',
  notAcceptedByMeta: 'was not accepted by Meta',
  notNumericId: 'must be digits only',
  lacksInstagramPermissions: 'lacks the permissions instagram_basic, instagram_manage_messages and pages_manage_metadata',
  notManagedPage: 'is not a Facebook page this user token manages',
  notLinkedInstagramAccount: 'is not the Instagram account linked to this page',
  notInstagramAccountName: 'is not the name of this Instagram account',
} as const;

export type CredentialRefusal = (typeof credentialRefusals)[keyof typeof credentialRefusals];
