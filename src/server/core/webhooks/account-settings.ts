import type { SigningSecret, WebhookSettings } from '../../../contract/webhooks.ts';
import type { CredentialsCipher } from '../channels/ports.ts';
import type { Clock, Store } from '../ports.ts';
import type { WebhookSettingsRecord } from './ports.ts';
import { memoized } from './memo.ts';
import { newSigningSecret } from './signing.ts';

/** After a rotation the old secret keeps signing alongside the new one for this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface WebhookSettingsDeps {
  store: Store;
  clock: Clock;
  /** Seals signing secrets at rest (SECRET_KEY). */
  sealer: CredentialsCipher;
}

const seal = (sealer: CredentialsCipher, secret: string) => sealer.seal({ secret });
/**
 * Opened secrets, by their sealed text (each seal has its own random IV, so a text never changes meaning):
 * every delivery is signed, and opening the same secret for each one cost more than the signing itself.
 */
const openers = new WeakMap<CredentialsCipher, (sealed: string) => string>();

const open = (sealer: CredentialsCipher, sealed: string): string => {
  let opener = openers.get(sealer);
  if (!opener) {
    opener = memoized((text) => {
      const { secret } = sealer.open(text);
      if (typeof secret !== 'string') throw new Error('sealed signing secret without a secret');
      return secret;
    });
    openers.set(sealer, opener);
  }
  return opener(sealed);
};

/** The account's settings, created with a fresh secret the first time anything needs them. */
async function settingsOf({ store, clock, sealer }: WebhookSettingsDeps, accountId: string): Promise<WebhookSettingsRecord> {
  const stored = await store.webhookSettings.get(accountId);
  if (stored) return stored;
  return store.webhookSettings.ensure({
    accountId,
    secret: seal(sealer, newSigningSecret()),
    previousSecret: null,
    previousExpiresAt: null,
    batching: false,
    updatedAt: clock.now(),
  });
}

/**
 * Every secret that signs a delivery at `now`: the current one, and the previous one within its overlap.
 * `known` are the sealed secrets when the caller has read them already.
 */
export async function signingSecrets(
  deps: WebhookSettingsDeps,
  accountId: string,
  known?: Pick<WebhookSettingsRecord, 'secret' | 'previousSecret' | 'previousExpiresAt'> | null,
): Promise<string[]> {
  const settings = known ?? (await settingsOf(deps, accountId));
  const secrets = [open(deps.sealer, settings.secret)];
  if (settings.previousSecret && settings.previousExpiresAt && settings.previousExpiresAt > deps.clock.now()) {
    secrets.push(open(deps.sealer, settings.previousSecret));
  }
  return secrets;
}

export async function getSigningSecret(deps: WebhookSettingsDeps, accountId: string): Promise<SigningSecret> {
  return { secret: open(deps.sealer, (await settingsOf(deps, accountId)).secret) };
}

/** A new secret signs from now on; the one it replaces keeps signing alongside for 24 hours. */
export async function rotateSigningSecret(deps: WebhookSettingsDeps, accountId: string): Promise<SigningSecret> {
  const settings = await settingsOf(deps, accountId);
  const now = deps.clock.now();
  const secret = newSigningSecret();
  await deps.store.webhookSettings.update({
    ...settings,
    secret: seal(deps.sealer, secret),
    previousSecret: settings.secret,
    previousExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
    updatedAt: now,
  });
  return { secret };
}

export async function getWebhookSettings(deps: WebhookSettingsDeps, accountId: string): Promise<WebhookSettings> {
  return { batching: (await settingsOf(deps, accountId)).batching };
}

export async function updateWebhookSettings(deps: WebhookSettingsDeps, accountId: string, change: WebhookSettings): Promise<WebhookSettings> {
  const settings = await settingsOf(deps, accountId);
  await deps.store.webhookSettings.update({ ...settings, batching: change.batching, updatedAt: deps.clock.now() });
  return { batching: change.batching };
}
