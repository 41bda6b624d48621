import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OutdatedChannel } from '../../core/channels/hook-refresh.ts';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import { startGraphEmulator, type GraphEmulator } from '../../testing/graph-emulator.ts';
import { APP_ID, APP_SECRET, PAGE } from '../../testing/instagram-fixture.ts';
import { callPacer } from '../call-pacer.ts';
import { instagramLimits, instagramMediaLimits, type InstagramDeps } from './account.ts';
import { PAGE_FIELDS } from './connect.ts';
import { instagramSubscriptionRegistrar } from './subscription.ts';

const CHANNEL = '00000000-0000-4000-8000-000000000001';
const cipher = { seal: (c: Record<string, unknown>) => JSON.stringify(c), open: (s: string) => JSON.parse(s) as Record<string, unknown> };
const channel: OutdatedChannel = {
  id: CHANNEL,
  credentials: JSON.stringify({ username: 'acme.shop', page_id: PAGE.id, inst_id: PAGE.instagram.id, page_token: PAGE.token }),
  messengerId: PAGE.instagram.id,
  fingerprint: null,
};
const live = () => new AbortController().signal;

describe('the Instagram page subscription registrar, against a local Graph API', () => {
  let graph: GraphEmulator;
  let holders: ChannelRecord[];
  const revoked = vi.fn(async () => {});
  const registrar = () => {
    const deps: InstagramDeps = {
      graphUrl: graph.url,
      appId: APP_ID,
  appSecret: APP_SECRET,
      verifyToken: 'verify-token-of-the-unit-tests',
      cipher,
      peers: { byPeerId: vi.fn(), byHandle: vi.fn(), save: vi.fn() },
      channels: { listByMessengerId: async () => holders },
      revoked,
    };
    return instagramSubscriptionRegistrar(deps, { account: callPacer(instagramLimits, () => false), media: callPacer(instagramMediaLimits, () => false) });
  };

  beforeAll(async () => {
    graph = await startGraphEmulator(APP_SECRET, { appId: APP_ID });
    graph.addPage(PAGE);
  });
  afterAll(() => graph?.close());

  it('subscribes the page again with the fields the gateway reads now', async () => {
    holders = [];
    expect(await registrar().refresh(channel, live())).toBe('registered');
    expect(graph.subscribedFields(PAGE.id)).toEqual([...PAGE_FIELDS]);
    expect(registrar().transport).toBe('instAPI');
    expect(registrar().fingerprint).toMatch(/^v1:/);
  });

  it('lets the page go when the channel left it, unless another channel has its account', async () => {
    holders = [{ id: '00000000-0000-4000-8000-000000000002' } as ChannelRecord];
    await registrar().withdraw(channel, live());
    expect(graph.subscribedFields(PAGE.id)).not.toBeNull();
    holders = [{ id: CHANNEL } as ChannelRecord];
    await registrar().withdraw(channel, live());
    expect(graph.subscribedFields(PAGE.id)).toBeNull();
  });

  it('switches off a channel without a page token (connected in a sandbox run), asking Meta nothing', async () => {
    const calls = graph.calls.length;
    const sandboxMade = { ...channel, credentials: JSON.stringify({ username: 'shop', page_id: '1', inst_id: '17841', user_token: 'EAAB' }) };
    expect(await registrar().refresh(sandboxMade, live())).toBe('revoked');
    expect(revoked).toHaveBeenCalledWith(CHANNEL, sandboxMade.credentials);
    expect(graph.calls.length).toBe(calls);
  });

  it('switches the channel off when Meta no longer takes the page’s token', async () => {
    graph.revoke(PAGE.token);
    expect(await registrar().refresh(channel, live())).toBe('revoked');
    expect(revoked).toHaveBeenCalledWith(CHANNEL, channel.credentials);
  });
});
