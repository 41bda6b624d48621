import { describe, expect, it } from 'vitest';
import { customerText } from '../../testing/whatsapp-personal-fake.ts';
import { RECENT_WRITER_MS, typingOf, writersOf } from './presence.ts';

const NOW_S = 1_795_704_697;
const now = NOW_S * 1000;
const jid = '15550001111@s.whatsapp.net';

describe('a customer’s presence on personal WhatsApp', () => {
  it('asks for the presence of customers who just wrote, once each, and not for the backlog, groups or the account’s own', () => {
    const fresh = customerText('15550001111', 'A1', 'hi');
    const again = customerText('15550001111', 'A2', 'are you there?');
    const old = { ...customerText('15550002222', 'B1', 'written while away'), messageTimestamp: NOW_S - RECENT_WRITER_MS / 1000 - 1 };
    const own = { ...customerText('15550003333', 'C1', 'from the phone'), key: { remoteJid: '15550003333@s.whatsapp.net', fromMe: true, id: 'C1' } };
    const group = { ...customerText('15550004444', 'D1', 'in a group'), key: { remoteJid: '120363000000000001@g.us', fromMe: false, id: 'D1', participant: '15550004444@s.whatsapp.net' } };
    expect(writersOf({ type: 'notify', messages: [fresh, again, old, own, group] }, now)).toEqual([jid]);
    expect(writersOf({ type: 'append', messages: [fresh] }, now)).toEqual([]);
  });

  it('takes writing and recording in a private chat for typing, a pause or coming online for its stop, and a group for nothing', () => {
    const update = (lastKnownPresence: 'composing' | 'recording' | 'paused' | 'available', id = jid) => ({ id, presences: { [id]: { lastKnownPresence } } });
    expect(typingOf(update('composing'))).toEqual({ chatType: 'whatsapp', chatId: '15550001111' });
    expect(typingOf(update('recording'))).toEqual({ chatType: 'whatsapp', chatId: '15550001111' });
    expect(typingOf(update('paused'))).toEqual({ chatType: 'whatsapp', chatId: '15550001111', stopped: true });
    expect(typingOf(update('available'))).toEqual({ chatType: 'whatsapp', chatId: '15550001111', stopped: true });
    expect(typingOf(update('composing', '120363000000000001@g.us'))).toBeNull();
  });
});
