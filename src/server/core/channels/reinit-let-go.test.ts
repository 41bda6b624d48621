import { describe, expect, it } from 'vitest';
import { transportRules } from '../../transports/rules.ts';
import type { Store, TransactionScope } from '../ports.ts';
import { reinitChannel } from './connect-channel.ts';
import type { ChannelDeps, ChannelRecord, ConnectDriver } from './ports.ts';

const NOW = new Date('2026-11-20T10:00:00Z');

const active: ChannelRecord = {
  id: '3f6b2c1e-8d4a-4f0e-9b1c-2a7d5e6f8a90',
  accountId: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  transport: 'telegram',
  state: { status: 'active', reason: null },
  phone: null,
  username: 'old_bot',
  messengerId: '111',
  name: 'Old bot',
  authUrl: null,
  tier: null,
  paid: true,
  credentials: 'sealed-old-bot',
  qr: null,
  pairing: null,
  createdAt: NOW,
  updatedAt: NOW,
};

/**
 * A reinit of a telegram channel to another bot, against a store whose last transaction (the one that gives the channel
 * the new bot) commits or fails, as `commits` says. `steps` is the order in which things happened.
 */
function reinitAgainst(commits: boolean) {
  const steps: string[] = [];
  let channel = active;
  const tx = {
    channels: {
      getForUpdate: async () => channel,
      update: async (next: ChannelRecord) => {
        channel = next;
      },
    },
    events: { insert: async () => ({ recorded: 1, queued: 0 }) },
  } as unknown as TransactionScope;
  let transactions = 0;
  const store = {
    channels: { get: async () => active },
    async transaction<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
      // withChannel's first transaction only catches up a QR (none here); the second changes the channel.
      const last = ++transactions === 2;
      const result = await work(tx);
      if (last && !commits) throw new Error('the connection was lost before the commit');
      if (last) steps.push('committed');
      return result;
    },
  } as unknown as Store;
  const driver = {
    connect: async () => ({
      kind: 'ready' as const,
      profile: { messengerId: '222', username: 'new_bot', name: 'New bot' },
      letGo: async () => {
        steps.push('old bot let go');
      },
    }),
  } as unknown as ConnectDriver;
  const deps: ChannelDeps = {
    store,
    clock: { now: () => NOW },
    rules: transportRules,
    driver,
    cipher: { seal: () => 'sealed-new-bot', open: () => ({}) },
    plan: 'sandbox',
  };
  const reinit = () => reinitChannel(deps, active.accountId, active.id, { telegram_token: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw' });
  return { steps, reinit };
}

describe('reconnecting a channel to another account', () => {
  it('lets the account before go once the channel holds the new one', async () => {
    const { steps, reinit } = reinitAgainst(true);
    const [channel] = await reinit();
    expect(channel).toMatchObject({ status: 'active', username: 'new_bot' });
    expect(steps).toEqual(['committed', 'old bot let go']);
  });

  it('keeps the account before where the reconnect did not commit: the channel still has it, and it still posts here', async () => {
    const { steps, reinit } = reinitAgainst(false);
    await expect(reinit()).rejects.toThrow('the connection was lost before the commit');
    expect(steps).toEqual([]);
  });
});
