import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { api, basic, hiddenFields, PARTNER, pkce, startPartnerGateway } from '../testing/partner-http.ts';
import { databaseKind } from '../testing/test-database.ts';

const REDIRECT = 'http://127.0.0.1:9/crm/callback?tenant=7';
const OWNER = { email: 'owner@example.com', password: 'owner password 1' };

describe(`authorization code with PKCE over HTTP (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  let base: string;
  const partner = basic(PARTNER.login, PARTNER.secret);
  let accountId: number;
  let clientId: string;

  const authorizeUrl = (challenge: string, extra: Record<string, string> = {}) =>
    `${base}/v2/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'transport,crm',
      state: 'st&te=/ü',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    })}`;

  /** Opens the consent page, and posts its form back as the owner's browser would. */
  const consent = async (challenge: string, answer: Record<string, string> = { ...OWNER, decision: 'allow' }) => {
    const page = await fetch(authorizeUrl(challenge));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('CRM of another company');
    const form = new URLSearchParams({ ...hiddenFields(html), ...answer });
    return fetch(authorizeUrl(challenge), { method: 'POST', body: form, redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  };
  const codeOf = async (challenge: string) => {
    const res = await consent(challenge);
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('http://127.0.0.1:9/crm/callback');
    expect(back.searchParams.get('tenant')).toBe('7');
    expect(back.searchParams.get('state')).toBe('st&te=/ü');
    return back.searchParams.get('code')!;
  };
  const redeem = (data: Record<string, string>) => api(base, 'POST', '/v2/oauth/token', partner, { grant_type: 'authorization_code', authorize_code_data: data });

  beforeAll(async () => {
    ({ t, base } = await startPartnerGateway(clock));
    // The account is the partner key's: the Basic partner did not create it.
    const created = await t.call('POST', '/v2/accounts', { token: t.partnerKey, body: { name: 'Owner Co' } });
    accountId = (created.json().data as { account: { account_id: number } }).account.account_id;
    expect((await t.call('PUT', `/v2/accounts/${accountId}/owner`, { token: t.partnerKey, body: OWNER })).statusCode).toBe(200);
    const client = await api(base, 'POST', '/v2/oauth/clients', partner, { name: 'CRM of another company', redirect_uris: [REDIRECT] });
    expect(client.status).toBe(201);
    clientId = client.body.data!.client_id as string;
  });
  afterAll(() => t.close());

  it('walks authorize → consent → code → token with the verifier, and the token works', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeOf(challenge);
    const res = await redeem({ code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    expect(res.status).toBe(200);
    const tokens = res.body.data as { access_token: string; refresh_token: string; expires_in: number };
    expect(tokens.expires_in).toBe(3600);
    expect((await api(base, 'GET', '/v2/channels', `Bearer ${tokens.access_token}`)).status).toBe(200);
    const refreshed = await api(base, 'POST', '/v2/oauth/token', partner, {
      grant_type: 'refresh_token',
      refresh_token_data: { refresh_token: tokens.refresh_token, client_id: clientId },
    });
    expect(refreshed.status).toBe(200);

    // The same code again: refused, and the tokens its first use gave are revoked.
    const again = await redeem({ code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant']);
    const afterReuse = await api(base, 'GET', '/v2/channels', `Bearer ${(refreshed.body.data as { access_token: string }).access_token}`);
    expect(afterReuse.status).toBe(401);
  });

  it('lets only the client the code was issued to, with its verifier, revoke what a spent code gave', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeOf(challenge);
    const first = await redeem({ code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    const access = `Bearer ${(first.body.data as { access_token: string }).access_token}`;
    // Another partner that got hold of the spent code, with its own client (same redirect URI), and the owner's client with a wrong verifier.
    const other = await t.call('POST', '/v2/oauth/clients', { token: t.partnerKey, body: { name: 'Someone else', redirect_uris: [REDIRECT] } });
    const otherClient = other.json().data.client_id as string;
    for (const codeVerifier of [verifier, pkce().verifier]) {
      const stolen = await t.call('POST', '/v2/oauth/token', {
        token: t.partnerKey,
        body: { grant_type: 'authorization_code', authorize_code_data: { code, redirect_uri: REDIRECT, client_id: otherClient, code_verifier: codeVerifier } },
      });
      expect([stolen.statusCode, stolen.json().error]).toEqual([400, 'invalid_grant']);
    }
    const guessed = await redeem({ code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: pkce().verifier });
    expect(guessed.body.error).toBe('invalid_grant');
    const elsewhere = await redeem({ code, redirect_uri: 'http://127.0.0.1:9/crm/callback', client_id: clientId, code_verifier: verifier });
    expect(elsewhere.body.error).toBe('invalid_grant');
    expect((await api(base, 'GET', '/v2/channels', access)).status).toBe(200);
    // The rightful client presenting it again is a replay of its own code: what it gave is revoked.
    expect((await redeem({ code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier })).body.error).toBe('invalid_grant');
    expect((await api(base, 'GET', '/v2/channels', access)).status).toBe(401);
  });

  it('answers a partner the same whether or not an email already signs in to an account it cannot see, and keeps that sign-in', async () => {
    const created = await api(base, 'POST', '/v2/accounts', partner, { name: 'Partner Co' });
    const own = created.body.data!.account!.account_id as number;
    const taken = await api(base, 'PUT', `/v2/accounts/${own}/owner`, partner, { email: OWNER.email.toUpperCase(), password: 'a partner password' });
    const fresh = await api(base, 'PUT', `/v2/accounts/${own}/owner`, partner, { email: 'FRESH@example.com', password: 'a partner password' });
    expect(taken.status).toBe(200);
    expect({ ...taken.body.data, email: 'x' }).toEqual({ ...fresh.body.data, email: 'x' });
    expect([taken.body.data!.email, fresh.body.data!.email]).toEqual([OWNER.email, 'fresh@example.com']);
    // The email still signs in to the account it did: not to the partner's, with the partner's password.
    const { challenge } = pkce();
    expect((await consent(challenge, { email: OWNER.email, password: 'a partner password', decision: 'allow' })).status).toBe(401);
    expect((await consent(challenge)).status).toBe(303);
    // Whoever administers both accounts is told.
    const both = await t.call('PUT', `/v2/accounts/${own}/owner`, { token: t.partnerKey, body: { email: OWNER.email, password: 'a partner password' } });
    expect([both.statusCode, both.json().description]).toEqual([400, 'This email signs in to another account']);
  });

  it('refuses a wrong verifier, a wrong redirect URI, another client and an expired code', async () => {
    const { verifier, challenge } = pkce();
    const code = await codeOf(challenge);
    expect((await redeem({ code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: pkce().verifier })).body.error).toBe('invalid_grant');
    expect((await redeem({ code, redirect_uri: 'http://127.0.0.1:9/crm/callback', client_id: clientId, code_verifier: verifier })).body.error).toBe('invalid_grant');
    expect((await redeem({ code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: 'short' })).body.error).toBe('invalid_request');
    expect((await redeem({ code, redirect_uri: REDIRECT, client_id: 'mgcl_unknown', code_verifier: verifier })).body.error).toBe('invalid_client');
    // The partner key did not register the client.
    const foreign = await t.call('POST', '/v2/oauth/token', {
      token: t.partnerKey,
      body: { grant_type: 'authorization_code', authorize_code_data: { code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier } },
    });
    expect(foreign.json().error).toBe('invalid_client');
    // Failed attempts did not spend it; five minutes do.
    clock.advance(300_000);
    expect((await redeem({ code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier })).body.error).toBe('invalid_grant');
  });

  it('never sends anything to an unregistered redirect URI, and answers other faults at the registered one with the state', async () => {
    const { challenge } = pkce();
    const unregistered = await fetch(authorizeUrl(challenge, { redirect_uri: 'https://attacker.invalid/cb' }), { redirect: 'manual' });
    expect(unregistered.status).toBe(400);
    expect(unregistered.headers.get('location')).toBeNull();
    const plain = await fetch(authorizeUrl(challenge, { code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(plain.status).toBe(303);
    const back = new URL(plain.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('st&te=/ü');
  });

  it('keeps the owner on the page after a wrong password, and tells the client when the owner denies', async () => {
    const { challenge } = pkce();
    const wrong = await consent(challenge, { email: OWNER.email, password: 'not the password', decision: 'allow' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong email or password');
    const denied = await consent(challenge, { decision: 'deny' });
    expect(denied.status).toBe(303);
    const back = new URL(denied.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });
});
