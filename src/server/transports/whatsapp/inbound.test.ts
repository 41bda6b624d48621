import type { WAMessage } from 'baileys';
import { describe, expect, it } from 'vitest';
import { customerMessage, mediaContent } from '../../testing/whatsapp-personal-fake.ts';
import { groupOfParticipants, mediaOf, reportsOfMessages } from './inbound.ts';

const keepNothing = async () => null;

describe('what WhatsApp’s messages report', () => {
  it('reads a file’s length whether the decoder made it a number or a Long', () => {
    const image = mediaContent.image(Buffer.from('photo')).imageMessage!;
    expect(mediaOf({ imageMessage: { ...image, fileLength: { toNumber: () => 5_000_000_000, low: 0, high: 1, unsigned: true } as never } })?.size).toBe(5_000_000_000);
    expect(mediaOf({ audioMessage: { ptt: true } })).toEqual({ kind: 'voice', mimetype: 'audio/ogg', name: 'voice.ogg', size: null, caption: null });
  });

  it('reads the message inside WhatsApp’s wrappers: view-once, disappearing, an edit’s envelope', async () => {
    const wrapped: WAMessage[] = [
      customerMessage('15551234567', 'A', { viewOnceMessageV2: { message: mediaContent.image(Buffer.from('x'), 'once') } }),
      customerMessage('15551234567', 'B', { ephemeralMessage: { message: { extendedTextMessage: { text: 'vanishing', contextInfo: { stanzaId: 'A' } } } } }),
      customerMessage('15551234567', 'C', { editedMessage: { message: { protocolMessage: { type: 14, key: { id: 'B' }, editedMessage: { conversation: 'vanished' } } } } }),
    ];
    const reports = await reportsOfMessages(wrapped, keepNothing);
    expect(reports).toEqual([
      { kind: 'message', message: expect.objectContaining({ messengerMessageId: 'A', text: 'once', attachment: null }) },
      { kind: 'message', message: expect.objectContaining({ messengerMessageId: 'B', text: 'vanishing', quotedMessengerId: 'A' }) },
      { kind: 'edit', edit: { chatType: 'whatsapp', chatId: '15551234567', messengerMessageId: 'B', text: 'vanished' } },
    ]);
  });

  it('names the member who wrote in a group as the sender, by number where WhatsApp gives one', async () => {
    const inGroup = (participant: string, participantAlt?: string): WAMessage => ({
      key: { remoteJid: '120363025246125486@g.us', id: `G${participant}`, fromMe: false, participant, ...(participantAlt ? { participantAlt } : {}) } as WAMessage['key'],
      message: { conversation: 'hello all' },
      pushName: 'Anna',
    });
    const reports = await reportsOfMessages([inGroup('15551234567@s.whatsapp.net'), inGroup('203741966172178@lid', '15557654321@s.whatsapp.net'), inGroup('203741966172179@lid')], keepNothing);
    expect(reports.map((r) => (r.kind === 'message' ? r.message.sender : 'other'))).toEqual([
      { chat_type: 'whatsapp', chat_id: '15551234567', name: 'Anna', username: null, phone: '15551234567' },
      { chat_type: 'whatsapp', chat_id: '15557654321', name: 'Anna', username: null, phone: '15557654321' },
      { chat_type: 'whatsapp', chat_id: '203741966172179', name: 'Anna', username: null, phone: null },
    ]);
    const [direct] = await reportsOfMessages([customerMessage('15551234567', 'D', { conversation: 'hi' })], keepNothing);
    expect(direct?.kind === 'message' && direct.message.sender).toBeUndefined();
  });

  it('knows a member WhatsApp names only by their private id by that id, and reports no membership for a promotion', () => {
    const update = { id: '120363025246125486@g.us', author: '15551234567@s.whatsapp.net', participants: [{ id: '203741966172178@lid' }] };
    expect(groupOfParticipants({ ...update, action: 'remove' })?.members).toEqual([{ memberId: '203741966172178', name: null, avatarUrl: null, status: 'deleted' }]);
    expect(groupOfParticipants({ ...update, action: 'promote' })).toBeNull();
    expect(groupOfParticipants({ ...update, id: '15551234567@s.whatsapp.net', action: 'add' })).toBeNull();
  });
});
