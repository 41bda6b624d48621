import { describe, expect, it } from 'vitest';
import { callPacer } from '../call-pacer.ts';
import { avitoAccounts } from './avito-account.ts';
import { AvitoApiError, type AvitoApi } from './avito-api.ts';
import { AuthorizationWithdrawn, type AvitoAccess, type TokenKeeper } from './avito-tokens.ts';

const CHANNEL = '00000000-0000-4000-8000-00000000a711';
const QUICK = { bot: { limit: 100, interval: 1000 }, chat: { limit: 100, interval: 1000 } };

/**
 * An account whose first token is `acc-old` and whose renewal gives `acc-new`; `answers` says what Avito answers each
 * call, by path and token (a status refuses it).
 */
function setup(answers: (path: string, token: string) => number | object) {
  const calls: { path: string; token: string }[] = [];
  const revoked: (string | null)[] = [];
  let renewals = 0;
  const api: AvitoApi = {
    async call<T>(_method: string, path: string, options: { token: string }) {
      calls.push({ path, token: options.token });
      const answer = answers(path, options.token);
      if (typeof answer === 'number') throw new AvitoApiError(answer, 'refused');
      return answer as T;
    },
    grant: () => Promise.reject(new Error('not used')),
  };
  const access = (token: string): AvitoAccess => ({ userId: '42', accessToken: token, sealed: `sealed-${token}` });
  const tokens: TokenKeeper = {
    access: async () => access('acc-old'),
    afterRefusal: async () => {
      renewals++;
      return access('acc-new');
    },
    detached: async () => null,
  };
  const accounts = avitoAccounts({ api, tokens, pacer: callPacer(QUICK, () => false), revoked: async (_id, sealed) => void revoked.push(sealed) });
  const run = () => accounts.run(CHANNEL, 'sealed-acc-old', undefined, (account) => account.call('POST', '/send'));
  return { calls, revoked, run, renewals: () => renewals };
}

describe('acting as an Avito account', () => {
  it('renews a token Avito refuses with 401 and does the work once more', async () => {
    const s = setup((_path, token) => (token === 'acc-old' ? 401 : { id: 'sent' }));
    expect(await s.run()).toEqual({ id: 'sent' });
    expect(s.calls).toEqual([
      { path: '/send', token: 'acc-old' },
      { path: '/send', token: 'acc-new' },
    ]);
    expect(s.revoked).toEqual([]);
  });

  it('tells an expired token’s 403 from the call’s own by asking Avito whose the token is', async () => {
    const expired = setup((path, token) => (token === 'acc-old' ? 403 : { id: 'sent' }));
    expect(await expired.run()).toEqual({ id: 'sent' });
    expect(expired.calls.map((c) => `${c.path} ${c.token}`)).toEqual(['/send acc-old', '/core/v1/accounts/self acc-old', '/send acc-new']);

    const refused = setup((path) => (path === '/send' ? 403 : { id: 42 }));
    await expect(refused.run()).rejects.toMatchObject({ status: 403 });
    expect(refused.renewals()).toBe(0);
  });

  it('takes the authorization as withdrawn when Avito refuses the renewed token too, and switches the channel off', async () => {
    const s = setup(() => 401);
    await expect(s.run()).rejects.toBeInstanceOf(AuthorizationWithdrawn);
    expect(s.revoked).toEqual(['sealed-acc-new']);
    expect(s.calls).toHaveLength(2);
  });

  it('leaves other refusals, and a 403 of the renewed token, to the caller', async () => {
    const busy = setup(() => 429);
    await expect(busy.run()).rejects.toMatchObject({ status: 429 });
    expect(busy.renewals()).toBe(0);
    const forbidden = setup((path, token) => (token === 'acc-old' ? 401 : 403));
    await expect(forbidden.run()).rejects.toMatchObject({ status: 403 });
    expect(forbidden.revoked).toEqual([]);
  });
});
