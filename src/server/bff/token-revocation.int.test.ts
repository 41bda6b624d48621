import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameClient, type FrameClient } from '../testing/frame-client.ts';
import { createLink, openFrame } from '../testing/frames.ts';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';

describe(`revoking a client token ends the frames it made (${databaseKind()})`, () => {
  let t: TestGateway;
  let baseUrl: string;
  let accountId: string;
  const clients: FrameClient[] = [];
  const chatsLink = { user: { id: 'u1' }, scope: 'global' } as const;

  beforeAll(async () => {
    t = await startTestGateway({ env: { PORT: '0' } });
    baseUrl = await t.gateway.listen();
    ({ accountId } = await t.newAccount('A'));
  });
  afterAll(async () => {
    clients.forEach((c) => c.close());
    await t.close();
  });

  const connected = async (token: string) => {
    const client = frameClient(baseUrl, token);
    clients.push(client);
    await client.connect();
    return client;
  };
  const revoke = async (tokenId: string) => {
    const res = await t.call('DELETE', `/v2/accounts/${accountId}/tokens/${tokenId}`, { token: t.partnerKey });
    expect(res.statusCode).toBe(200);
  };

  it("ends the sessions minted with the token on their sockets and refuses them, and refuses the token's unused links", async () => {
    const doomed = await t.issueToken(accountId, 'client');
    const kept = await t.issueToken(accountId, 'client');
    const sessionToken = await openFrame(t, doomed.token, 'chats', chatsLink);
    const unused = await createLink(t, doomed.token, 'channels', {});
    const keptSession = await openFrame(t, kept.token, 'chats', chatsLink);
    const frame = await connected(sessionToken);
    const keptFrame = await connected(keptSession);

    await revoke(doomed.tokenId);

    await frame.until(() => frame.ended.length > 0, 'session_ended on the revoked frame');
    expect(frame.ended[0]).toEqual({ reason: 'revoked' });
    expect((await t.call('GET', '/bff/session', { token: sessionToken })).statusCode).toBe(401);
    expect((await t.call('POST', '/bff/session/renew', { token: sessionToken })).statusCode).toBe(401);
    const again = frameClient(baseUrl, sessionToken);
    clients.push(again);
    await expect(again.connect()).rejects.toThrow('UNAUTHORIZED');
    const exchange = await t.call('POST', '/bff/session', { body: { link: unused.link } });
    expect(exchange.statusCode).toBe(401);

    // What another token made goes on.
    expect((await t.call('GET', '/bff/session', { token: keptSession })).statusCode).toBe(200);
    expect(keptFrame.ended).toEqual([]);
  });
});
