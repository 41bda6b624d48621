import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/free-port.ts';
import { startGraphEmulator, type GraphEmulator } from '../../testing/graph-emulator.ts';
import { APP_ID, APP_SECRET, CREDENTIALS, PAGE, PERMISSIONS, USER_TOKEN } from '../../testing/instagram-fixture.ts';
import { callPacer } from '../call-pacer.ts';
import { instagramLimits, instagramMediaLimits, type InstagramDeps } from './account.ts';
import { connectInstagram } from './connect.ts';

const cipher = { seal: (c: Record<string, unknown>) => JSON.stringify(c), open: (s: string) => JSON.parse(s) as Record<string, unknown> };
const pacers = () => ({ account: callPacer(instagramLimits, () => false), media: callPacer(instagramMediaLimits, () => false) });
const depsAt = (graphUrl: string): InstagramDeps => ({
  graphUrl,
  appId: APP_ID,
  appSecret: APP_SECRET,
  verifyToken: 'verify-token-of-the-unit-tests',
  cipher,
  peers: { byPeerId: async () => undefined, byHandle: async () => undefined, save: async () => {} },
  channels: { listByMessengerId: async () => [] },
  timeoutMs: 2_000,
});

describe('connecting an Instagram account', () => {
  let graph: GraphEmulator;
  beforeAll(async () => {
    graph = await startGraphEmulator(APP_SECRET, { appId: APP_ID });
    graph.addUser(USER_TOKEN, { permissions: PERMISSIONS, pages: [PAGE.id] });
    graph.addPage(PAGE);
  });
  afterAll(() => graph?.close());

  it('keeps the page’s credentials in place of the user’s, and the account as the channel’s profile', async () => {
    expect(await connectInstagram(depsAt(graph.url), pacers(), 'c1', CREDENTIALS)).toEqual({
      kind: 'ready',
      profile: { messengerId: PAGE.instagram.id, username: 'acme.shop', name: 'Acme Shop' },
      credentials: { username: 'acme.shop', page_id: PAGE.id, inst_id: PAGE.instagram.id, page_token: PAGE.token },
    });
  });

  it('is a 503 while Meta is out of reach, and refuses nothing', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    await expect(connectInstagram(depsAt(closed), pacers(), 'c1', CREDENTIALS)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'Meta could not be reached; try again' });
  });

  it('refuses what cannot be an id or a token before Meta is asked', async () => {
    const calls = graph.calls.length;
    expect(await connectInstagram(depsAt(graph.url), pacers(), 'c1', { ...CREDENTIALS, page_id: '../me' })).toEqual({ kind: 'refused', field: 'page_id', message: 'must be digits only' });
    expect(await connectInstagram(depsAt(graph.url), pacers(), 'c1', { ...CREDENTIALS, user_token: 'EAAG token with spaces in it, see' })).toMatchObject({ field: 'user_token' });
    expect(graph.calls.length).toBe(calls);
    // A name of another type is no name of the account's.
    expect(await connectInstagram(depsAt(graph.url), pacers(), 'c1', { ...CREDENTIALS, username: 42 })).toMatchObject({ field: 'username', message: 'is not the name of this Instagram account' });
  });
});
