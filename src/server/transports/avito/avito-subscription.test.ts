import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutdatedChannel } from '../../core/channels/hook-refresh.ts';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import { startAvitoEmulator, type AvitoEmulator } from '../../testing/avito-emulator.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { callPacer } from '../call-pacer.ts';
import { avitoAccounts } from './avito-account.ts';
import { avitoApi } from './avito-api.ts';
import { avitoSubscriptionRegistrar, subscriptionUrl } from './avito-subscription.ts';
import { credentialsFrom, tokenKeeper } from './avito-tokens.ts';

const APP = { clientId: 'gw-avito-app', clientSecret: 'avito-app-secret-0123456789' };
const SHOP = { id: 94235311, name: 'Acme Shop' };
const GATEWAY = 'https://gw.example.com';
const PREVIOUS = 'https://old-gw.example.com';
const CHANNEL = '00000000-0000-4000-8000-000000000001';
const OTHER_CHANNEL = '00000000-0000-4000-8000-000000000002';
const QUICK = { bot: { limit: 100, interval: 1000 }, chat: { limit: 100, interval: 1000 } };
const cipher = { seal: (c: Record<string, unknown>) => JSON.stringify(c), open: (s: string) => JSON.parse(s) as Record<string, unknown> };
const hookSecret = (id: string) => `secret-${id.slice(-4)}`;
const live = () => new AbortController().signal;

describe('the Avito subscription registrar, against a local Avito', () => {
  const clock = new ManualClock();
  let avito: AvitoEmulator;
  let channel: OutdatedChannel;
  const revoked: string[] = [];
  const deps = { publicUrl: GATEWAY, hookSecret };
  const at = (host: string, id = CHANNEL, secret = hookSecret(id)) => `${host}/hooks/avito/${id}?secret=${secret}`;

  const registrar = (previous: string | null = null) => {
    const api = avitoApi({ apiUrl: avito.url, ...APP });
    const tokens = tokenKeeper({
      cipher,
      clock,
      channels: {
        getById: async () => ({ credentials: channel.credentials }) as ChannelRecord,
        async replaceCredentials(_id, expected, next) {
          if (channel.credentials !== expected) return false;
          channel = { ...channel, credentials: next };
          return true;
        },
      },
      refresh: (refreshToken) => api.grant({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      revoked: async (id) => void revoked.push(id),
    });
    return avitoSubscriptionRegistrar(deps, avitoAccounts({ api, tokens, pacer: callPacer(QUICK, () => false), revoked: async (id) => void revoked.push(id) }), previous);
  };
  /** The account's addresses, as its owner (or an earlier release) left them. */
  const pointAt = (...urls: string[]) => avito.setSubscriptions(SHOP.id, urls);

  beforeAll(async () => {
    avito = await startAvitoEmulator(APP, clock);
    avito.addAccount(SHOP);
  });
  beforeEach(async () => {
    const grant = await avitoApi({ apiUrl: avito.url, ...APP }).grant({ grant_type: 'authorization_code', code: avito.issueCode(SHOP.id) });
    channel = { id: CHANNEL, credentials: JSON.stringify(credentialsFrom(grant, String(SHOP.id), clock.now())), messengerId: String(SHOP.id), fingerprint: null };
  });
  afterAll(() => avito?.close());

  it('subscribes again where the account posts to the channel’s hook under another secret, and removes that address and other channels’', async () => {
    const owners = 'https://crm.example.com/avito';
    pointAt(at(GATEWAY, CHANNEL, 'old-secret'), at(GATEWAY, OTHER_CHANNEL), owners);
    expect(await registrar().refresh(channel, live())).toBe('registered');
    expect(avito.subscriptionsOf(SHOP.id)).toEqual([owners, subscriptionUrl(deps, CHANNEL)]);
  });

  it('leaves an account posting elsewhere, unless it is the channel’s hook under PREVIOUS_PUBLIC_URL', async () => {
    pointAt(at(PREVIOUS));
    expect(await registrar().refresh(channel, live())).toBe('elsewhere');
    expect(avito.subscriptionsOf(SHOP.id)).toEqual([at(PREVIOUS)]);
    expect(await registrar(PREVIOUS).refresh(channel, live())).toBe('registered');
    expect(avito.subscriptionsOf(SHOP.id)).toEqual([subscriptionUrl(deps, CHANNEL)]);
    pointAt();
    expect(await registrar(PREVIOUS).refresh(channel, live())).toBe('elsewhere');
  });

  it('withdraws only the channel’s own address', async () => {
    pointAt(subscriptionUrl(deps, CHANNEL), subscriptionUrl(deps, OTHER_CHANNEL));
    await registrar().withdraw(channel, live());
    expect(avito.subscriptionsOf(SHOP.id)).toEqual([subscriptionUrl(deps, OTHER_CHANNEL)]);
  });

  it('says the channel was revoked when Avito will not renew its authorization', async () => {
    pointAt(subscriptionUrl(deps, CHANNEL));
    avito.withdraw(SHOP.id);
    clock.advance(86_400_000);
    expect(await registrar().refresh(channel, live())).toBe('revoked');
    expect(revoked).toEqual([CHANNEL]);
  });
});
