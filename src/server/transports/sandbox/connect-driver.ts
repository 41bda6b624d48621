import { randomBytes } from 'node:crypto';
import { renderQr } from '../qr-image.ts';
import { credentialRefusals } from '../../../contract/credential-fields.ts';
import { hashSecret, secretMatches } from '../../core/accounts/token-secret.ts';
import type { ConnectDriver, ConnectOutcome } from '../../core/channels/ports.ts';
import type { SandboxStateRepository } from '../../core/sandbox/ports.ts';

const TELEGRAM_TOKEN = /^(\d{1,20}):[A-Za-z0-9_-]{35}$/;
const MAXBOT_TOKEN = /^\S{20,}$/;
const AVITO_CODE = /^[A-Za-z0-9_-]{6,}$/;

const refused = (field: string, message: string): ConnectOutcome => ({ kind: 'refused', field, message });
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const short = (secret: string) => hashSecret(secret).slice(0, 10);

/**
 * The gateway's side of the simulated messenger network. It answers like the platforms do: bot tokens of
 * the real format are accepted unless revoked, personal accounts show QR codes, the business API sends the
 * user to an authorization page. Nothing here keeps state of its own; the network's memory is the repository.
 */
export function sandboxConnectDriver(deps: { sandbox: SandboxStateRepository; publicUrl: string }): ConnectDriver {
  // Bot tokens are remembered only as digests, like every other secret.
  const revoked = (token: string) => deps.sandbox.isTokenRevoked(hashSecret(token));
  const authorizationUrl = (channelId: string) =>
    `${deps.publicUrl}/sandbox/authorize/${channelId}?state=${randomBytes(16).toString('base64url')}`;
  return {
    connects: () => true,
    async connect({ channelId, transport, credentials }) {
      switch (transport) {
        case 'telegram': {
          const token = text(credentials.telegram_token);
          const match = TELEGRAM_TOKEN.exec(token);
          if (!match) return refused('telegram_token', credentialRefusals.notSandboxBotToken);
          if (await revoked(token)) return refused('telegram_token', credentialRefusals.revoked);
          const botId = match[1]!;
          return { kind: 'ready', profile: { messengerId: botId, username: `sandbox_${botId}_bot`, name: `Sandbox bot ${botId}` } };
        }
        case 'maxbot': {
          const token = text(credentials.access_token);
          if (!MAXBOT_TOKEN.test(token)) return refused('access_token', credentialRefusals.notMaxBotToken);
          if (await revoked(token)) return refused('access_token', credentialRefusals.revoked);
          const botId = short(token);
          return { kind: 'ready', profile: { messengerId: botId, username: `sandbox_${botId}_bot`, name: `Sandbox MAX bot ${botId}` } };
        }
        case 'avito': {
          const code = text(credentials.code);
          if (!AVITO_CODE.test(code)) return refused('code', credentialRefusals.notAuthorizationCode);
          const id = short(code);
          return { kind: 'ready', profile: { messengerId: id, name: `Sandbox Avito ${id}` } };
        }
        case 'instAPI': {
          // No credentials (created as `instagram`): Facebook Login's page, for which the sandbox's page stands in.
          if (Object.keys(credentials).length === 0) return { kind: 'redirect', url: authorizationUrl(channelId) };
          const username = text(credentials.username);
          if (username.includes('@')) return refused('username', credentialRefusals.atSignInUsername);
          return { kind: 'ready', profile: { messengerId: text(credentials.inst_id), username, name: username } };
        }
        case 'wapi':
        case 'vk':
          // The business number's consent screen, or VK's community authorization: the sandbox's page stands in.
          return { kind: 'redirect', url: authorizationUrl(channelId) };
        case 'whatsapp':
        case 'tgapi':
        case 'viber':
        case 'max':
          return { kind: 'qr' };
      }
    },
    async newQrPayload(channelId) {
      return `https://sandbox.invalid/link/${channelId}/${randomBytes(12).toString('base64url')}`;
    },
    renderQr,
    async checkTwoFactor({ accountId, phone, code }) {
      if (!phone) return false;
      const password = await deps.sandbox.twoFactorPassword(accountId, phone);
      return password !== null && secretMatches(code, hashSecret(password));
    },
    authorizationUrl,
  };
}
