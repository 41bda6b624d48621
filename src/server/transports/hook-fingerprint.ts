import { createHash } from 'node:crypto';

/** What a transport registers for each channel: where the platform posts, which updates, and the secret it sends back. */
export interface HookRegistrationShape {
  /** The channel's hook address (`<PUBLIC_URL>/hooks/<transport>/<channel id>`). */
  hookUrl(channelId: string): string;
  updateKinds: readonly string[];
  hookSecret(channelId: string): string;
  /**
   * The channel's hook address under PREVIOUS_PUBLIC_URL, where one is set: a bot still posting there is moved. Not
   * registered, but part of what a channel was checked against: a channel whose bot was found elsewhere (and stored
   * as checked) is checked again once it is set, as a bot at the old address then is the gateway's to move.
   */
  previousHookUrl?(channelId: string): string;
}

/**
 * Stands in for a channel id: the address and the secret are those of every channel with its own id in its place,
 * so one fingerprint serves all of a transport's channels and the database compares it as it is.
 */
const ANY_CHANNEL = '00000000-0000-0000-0000-000000000000';

/**
 * A hash of what the gateway registers now: the hook address (PUBLIC_URL), the update kinds and the secret as they
 * are derived now (SECRET_KEY and the scheme), and the address it moves bots from (PREVIOUS_PUBLIC_URL). Any of them
 * changing changes it; without a previous address it is what it was before there was one. The secret goes in only
 * through the hash, so the fingerprint stored with a channel gives nothing away.
 */
export function hookFingerprint(shape: HookRegistrationShape): string {
  const secret = createHash('sha256').update(shape.hookSecret(ANY_CHANNEL)).digest('base64url');
  const previous = shape.previousHookUrl ? { previous: shape.previousHookUrl(ANY_CHANNEL) } : {};
  const described = JSON.stringify({ url: shape.hookUrl(ANY_CHANNEL), kinds: [...shape.updateKinds], secret, ...previous });
  return `v1:${createHash('sha256').update(described).digest('base64url')}`;
}
