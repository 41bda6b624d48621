import type { AuthorizationChoice } from '../../core/channels/authorization-return.ts';
import type { ChannelRecord, CredentialsCipher } from '../../core/channels/ports.ts';
import type { Clock, Store } from '../../core/ports.ts';
import { choiceUrl, type MetaLoginTransport } from './login-dialog.ts';
import { choiceState, nonceOf } from './login-state.ts';

/**
 * A login that granted several things the channel could connect (WhatsApp numbers, Instagram accounts): the owner
 * chooses one on a page of the gateway's. Meta's code is taken once, so the token it was worth waits with the
 * channel, sealed with its credentials (`signup`: the token and the options offered), until one is chosen or another
 * login replaces it; connecting the one chosen leaves the channel with its credentials only.
 *
 * The page's links come back to the gateway with a state of their own (login-state.ts: signed, expiring, naming the
 * channel, the option and the nonce of the channel's address when the page was made). Making the page gives the
 * channel a new address, so the login dialog's state just used is not taken again, and a reinit or another login
 * since makes the page's links stale. A choice is taken before Meta is asked (the channel's address moves on,
 * `moveAddress`), so a link followed twice connects once; Meta refusing or failing gives the page back.
 */

export interface LoginChoiceDeps {
  store: Store;
  cipher: CredentialsCipher;
  stateKey: Buffer;
  publicUrl: string;
  clock: Clock;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/**
 * The page of options to choose from; the channel waits for the choice at `address` (a new one of the login
 * dialog's), the token sealed with it. Null where the channel changed meanwhile (another return, a reinit).
 */
export async function offerChoice<T extends { id: string }>(
  deps: LoginChoiceDeps,
  channel: ChannelRecord,
  transport: MetaLoginTransport,
  address: string,
  pending: { token: string; options: T[] },
  page: { title: string; text: string; label(option: T): string },
): Promise<{ choose: AuthorizationChoice } | null> {
  const now = deps.clock.now();
  const nonce = nonceOf(address)!;
  const renewed = await deps.store.transaction(async (tx) => {
    const current = await tx.channels.getByIdForUpdate(channel.id);
    if (!current || current.state.status !== 'init' || current.authUrl !== channel.authUrl) return false;
    const kept = current.credentials ? deps.cipher.open(current.credentials) : {};
    await tx.channels.update({ ...current, authUrl: address, credentials: deps.cipher.seal({ ...kept, signup: pending }) });
    return true;
  });
  if (!renewed) return null;
  return {
    choose: {
      title: page.title,
      text: page.text,
      options: pending.options.map((o) => ({ label: page.label(o), url: choiceUrl(deps.publicUrl, transport, choiceState(deps.stateKey, channel.id, nonce, o.id, now)) })),
    },
  };
}

/**
 * The option a link of the page names, with the token waiting for it: `used` where the channel's address changed
 * since the page was made (the page is stale), `forged` where the channel holds no such option.
 */
export function chosenOption<T extends { id: string }>(deps: Pick<LoginChoiceDeps, 'cipher'>, channel: ChannelRecord, nonce: string, id: string): { token: string; option: T } | { refused: 'used' | 'forged' } {
  if (nonceOf(channel.authUrl) !== nonce) return { refused: 'used' };
  const pending = channel.credentials ? deps.cipher.open(channel.credentials).signup : undefined;
  if (!isObject(pending) || typeof pending.token !== 'string' || !Array.isArray(pending.options)) return { refused: 'used' };
  const option = (pending.options as unknown[]).find((o): o is T => isObject(o) && o.id === id);
  if (!option) return { refused: 'forged' };
  return { token: pending.token, option };
}

/**
 * The channel's address, if still `expected`, moves on to `next`, what waits with it kept. The new address, or null
 * where the channel changed meanwhile. Taking a choice moves it from the page's to a new one; giving it back, the
 * other way.
 */
export async function moveAddress(deps: Pick<LoginChoiceDeps, 'store'>, channelId: string, expected: string | null, next: string): Promise<string | null> {
  return deps.store.transaction(async (tx) => {
    const current = await tx.channels.getByIdForUpdate(channelId);
    if (!current || current.state.status !== 'init' || current.authUrl !== expected) return null;
    await tx.channels.update({ ...current, authUrl: next });
    return next;
  });
}
