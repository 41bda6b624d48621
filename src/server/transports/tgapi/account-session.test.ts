import { describe, expect, it } from 'vitest';
import { eventually } from '../../testing/eventually.ts';
import { telegramAccountFake } from '../../testing/telegram-account-fake.ts';
import { AccountSession, type SessionListener } from './account-session.ts';
import { listenForUpdates, type InboundSink } from './updates.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';

const self = { id: 1001, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };
const anna = { id: 2002, firstName: 'Anna', username: 'anna_k', phone: '79990002233' };

function listener() {
  const seen = { scans: [] as unknown[], reports: [] as PlatformReport[], snapshots: [] as string[], ended: 0 };
  const sink: InboundSink = {
    reports: async (r) => void seen.reports.push(...r),
    typing: () => {},
    members: async () => {},
    fileLink: (chatId, id) => `http://127.0.0.1/files/${chatId}/${id}`,
  };
  const l: SessionListener = {
    scanned: async (scan) => void seen.scans.push(scan),
    warn: (err) => console.error(err),
    ended: async () => void seen.ended++,
    persist: async (s) => void seen.snapshots.push(s),
    listen: (client, track) => listenForUpdates(client, sink, track, () => undefined),
  };
  return { seen, l };
}

describe('a personal Telegram account’s session', () => {
  it('logs in by QR, hears a customer, and after a restart fetches what it missed once', async () => {
    const fake = telegramAccountFake({ self });
    fake.addUser(anna);
    const { seen, l } = listener();
    const session = await AccountSession.open(fake.clients, null, l);
    const link = await session.loginLink();
    expect(link).toMatch(/^tg:\/\/login\?token=[\w-]+$/);
    fake.scan();
    await eventually(async () => (seen.scans.length ? true : undefined));
    expect(seen.scans[0]).toMatchObject({ needsPassword: false, user: { id: 1001, username: 'acme_support' } });
    fake.customerWrites(anna.id, 'Hello there');
    await eventually(async () => (seen.reports.length ? true : undefined));
    expect(seen.reports[0]).toMatchObject({ kind: 'message', message: { chatId: '2002', text: 'Hello there', direction: 'inbound' } });
    await session.close();
    fake.disconnect();
    fake.customerWrites(anna.id, 'Are you there?');
    const second = listener();
    const reopened = await AccountSession.open(fake.clients, seen.snapshots.at(-1)!, second.l);
    await eventually(async () => (second.seen.reports.length ? true : undefined));
    expect(second.seen.reports.map((r) => r.kind === 'message' && r.message.text)).toEqual(['Are you there?']);
    await reopened.close();
  }, 30_000);

  it('keeps the caption of a file a customer sends, as a message of its own after the file', async () => {
    const fake = telegramAccountFake({ self, seed: 'caption' });
    fake.addUser(anna);
    const { seen, l } = listener();
    const session = await AccountSession.open(fake.clients, null, l);
    await session.loginLink();
    fake.scan();
    await eventually(async () => (seen.scans.length ? true : undefined));
    const id = fake.customerSendsFile(anna.id, { name: 'invoice.pdf', mimeType: 'application/pdf', size: 2048 }, 'Счёт за октябрь');
    fake.customerSendsFile(anna.id, { name: 'scan.pdf', mimeType: 'application/pdf', size: 1024 });
    await eventually(async () => (seen.reports.length >= 3 ? true : undefined));
    const messages = seen.reports.map((r) => (r.kind === 'message' ? r.message : null));
    expect(messages).toEqual([
      expect.objectContaining({ messengerMessageId: String(id), text: null, attachment: { url: `http://127.0.0.1/files/2002/${id}`, name: 'invoice.pdf', mimetype: 'application/pdf' } }),
      expect.objectContaining({ messengerMessageId: `${id}:caption`, text: 'Счёт за октябрь', attachment: null, direction: 'inbound', chatId: '2002' }),
      expect.objectContaining({ messengerMessageId: String(id + 1), text: null, attachment: expect.objectContaining({ name: 'scan.pdf' }) }),
    ]);
    await session.close();
  }, 30_000);
});
