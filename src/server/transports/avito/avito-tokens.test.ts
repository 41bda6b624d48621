import { describe, expect, it } from 'vitest';
import type { ChannelRecord } from '../../core/channels/ports.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { GrantRefused, type TokenGrant } from './avito-api.ts';
import { AuthorizationWithdrawn, tokenKeeper, type AvitoCredentials } from './avito-tokens.ts';

const CHANNEL = '00000000-0000-4000-8000-00000000a710';
const HOUR = 3_600_000;
/** Sealing as JSON: what is stored can be read back in the test. */
const cipher = { seal: (c: Record<string, unknown>) => JSON.stringify(c), open: (s: string) => JSON.parse(s) as Record<string, unknown> };

/** One stored channel whose credentials other "processes" may change, and the keeper's calls to Avito. */
function setup(initial: AvitoCredentials, refresh?: (token: string) => Promise<TokenGrant>) {
  const clock = new ManualClock();
  let stored: string | null = JSON.stringify(initial);
  let deleted = false;
  const replaced: { from: string; to: string }[] = [];
  const refreshed: string[] = [];
  const revoked: (string | null)[] = [];
  let n = 0;
  const keeper = tokenKeeper({
    cipher,
    clock,
    pollMs: 1,
    channels: {
      getById: async () => (deleted ? undefined : ({ credentials: stored } as ChannelRecord)),
      async replaceCredentials(_id, expected, next) {
        if (deleted || stored !== expected) return false;
        replaced.push({ from: expected, to: next });
        stored = next;
        return true;
      },
    },
    refresh: async (token) => {
      refreshed.push(token);
      return refresh ? refresh(token) : { access_token: `acc-${++n}`, refresh_token: `ref-${n}`, expires_in: 86_400 };
    },
    revoked: async (_id, sealed) => void revoked.push(sealed),
  });
  return {
    clock,
    keeper,
    replaced,
    refreshed,
    revoked,
    stored: () => (stored === null ? null : (JSON.parse(stored) as AvitoCredentials)),
    sealed: () => stored!,
    setStored: (c: AvitoCredentials) => void (stored = JSON.stringify(c)),
    delete: () => void (deleted = true),
  };
}

const pair = (clock: ManualClock, access: string, fields: Partial<AvitoCredentials> = {}): AvitoCredentials => ({
  access_token: access,
  refresh_token: `ref-of-${access}`,
  expires_at: clock.now().getTime() + 24 * HOUR,
  user_id: '94235311',
  ...fields,
});

describe('the Avito token keeper', () => {
  it('calls with the token it is given while it has time left, asking neither the store nor Avito', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0'));
    expect(await s.keeper.access(CHANNEL, s.sealed())).toEqual({ userId: '94235311', accessToken: 'acc-0', sealed: s.sealed() });
    expect(s.refreshed).toEqual([]);
  });

  it('renews a token about to expire once for every call at the same time: a claim is stored first, then the new pair over it', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0', { expires_at: clock.now().getTime() + 5 * 60_000 }));
    const old = s.sealed();
    const got = await Promise.all([1, 2, 3].map(() => s.keeper.access(CHANNEL, old)));
    expect(new Set(got.map((g) => g.accessToken))).toEqual(new Set(['acc-1']));
    expect(s.refreshed).toEqual(['ref-of-acc-0']);
    expect(s.replaced).toHaveLength(2);
    expect(JSON.parse(s.replaced[0]!.to)).toMatchObject({ access_token: 'acc-0', renewing_until: expect.any(Number) });
    expect(s.stored()).toEqual({ access_token: 'acc-1', refresh_token: 'ref-1', expires_at: s.clock.now().getTime() + 24 * HOUR, user_id: '94235311' });
  });

  it('waits for another process’s renewal and takes its pair, renewing nothing itself', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0', { expires_at: 0, renewing_until: clock.now().getTime() + 10_000 }));
    const old = s.sealed();
    const waiting = s.keeper.access(CHANNEL, old);
    await new Promise((resolve) => setTimeout(resolve, 20));
    s.setStored(pair(s.clock, 'acc-by-other'));
    expect((await waiting).accessToken).toBe('acc-by-other');
    expect(s.refreshed).toEqual([]);
  });

  it('takes a claim over once it lapsed (its process stopped halfway)', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0', { expires_at: 0, renewing_until: clock.now().getTime() - 1 }));
    expect((await s.keeper.access(CHANNEL, s.sealed())).accessToken).toBe('acc-1');
    expect(s.refreshed).toEqual(['ref-of-acc-0']);
  });

  it('takes the pair stored since a token was refused, and renews only when the refused one is still stored', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0'));
    const used = await s.keeper.access(CHANNEL, s.sealed());
    s.setStored(pair(s.clock, 'acc-by-other'));
    expect((await s.keeper.afterRefusal(CHANNEL, used)).accessToken).toBe('acc-by-other');
    expect(s.refreshed).toEqual([]);
    const again = await s.keeper.access(CHANNEL, s.sealed());
    expect((await s.keeper.afterRefusal(CHANNEL, again)).accessToken).toBe('acc-1');
    expect(s.refreshed).toEqual(['ref-of-acc-by-other']);
  });

  it('switches the channel off when Avito refuses to renew, naming the credentials it holds', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0', { expires_at: 0 }), () => Promise.reject(new GrantRefused(400, 'invalid_grant')));
    await expect(s.keeper.access(CHANNEL, s.sealed())).rejects.toBeInstanceOf(AuthorizationWithdrawn);
    expect(s.revoked).toEqual([s.sealed()]);
    expect(s.stored()!.renewing_until).toEqual(expect.any(Number));
  });

  it('gives its claim back when Avito could not be asked, so that the next call renews at once', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0', { expires_at: 0 }), () => Promise.reject(new Error('connection reset')));
    const before = s.sealed();
    await expect(s.keeper.access(CHANNEL, before)).rejects.toThrow('connection reset');
    expect(s.sealed()).toBe(before);
    expect(s.revoked).toEqual([]);
  });

  it('renews without storing for a channel gone, and for credentials being replaced; never switches anything off for those', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0', { expires_at: 0 }));
    const sealed = s.sealed();
    s.delete();
    expect((await s.keeper.access(CHANNEL, sealed)).accessToken).toBe('acc-1');
    expect(s.replaced).toEqual([]);
    expect(await s.keeper.detached(JSON.stringify(pair(clock, 'acc-still-good')))).toMatchObject({ accessToken: 'acc-still-good' });
    expect(await s.keeper.detached(sealed)).toMatchObject({ accessToken: 'acc-2', sealed: '' });
    const refusing = setup(pair(clock, 'acc-0', { expires_at: 0 }), () => Promise.reject(new GrantRefused(400, 'invalid_grant')));
    expect(await refusing.keeper.detached(refusing.sealed())).toBeNull();
    expect(refusing.revoked).toEqual([]);
  });

  it('switches off a channel that holds no Avito tokens (a sandbox run’s code), as one whose authorization was withdrawn', async () => {
    const clock = new ManualClock();
    const s = setup(pair(clock, 'acc-0'));
    const sandboxMade = JSON.stringify({ code: 'sandbox-code' });
    await expect(s.keeper.access(CHANNEL, sandboxMade)).rejects.toBeInstanceOf(AuthorizationWithdrawn);
    expect(s.revoked).toEqual([sandboxMade]);
    expect(s.refreshed).toEqual([]);
  });
});
