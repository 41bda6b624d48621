import type { WAMessage, WAMessageUpdate } from 'baileys';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { chatOf, userOf } from './addresses.ts';

/** proto.Message.ProtocolMessage.Type's values the driver reads (a message taken back, a message edited). */
const REVOKE = 0;
const MESSAGE_EDIT = 14;
/** proto.WebMessageInfo.Status: the receipts of the account's own messages. */
const DELIVERY_ACK = 3;
const READ = 4;
const PLAYED = 5;

type Content = NonNullable<WAMessage['message']>;

/** The words of a message, whatever kind carries them (a plain text, a text with a link or quote, a caption). */
function textOf(m: Content | null | undefined): string | null {
  if (!m) return null;
  return (
    m.conversation ??
    m.extendedTextMessage?.text ??
    m.imageMessage?.caption ??
    m.videoMessage?.caption ??
    m.documentMessage?.caption ??
    m.ephemeralMessage?.message?.conversation ??
    m.ephemeralMessage?.message?.extendedTextMessage?.text ??
    null
  );
}

const quotedIdOf = (m: Content): string | undefined => m.extendedTextMessage?.contextInfo?.stanzaId ?? undefined;

/**
 * What WhatsApp's upsert of messages reports for the gateway: customers' messages, the account's own written on the
 * phone (`outbound`, echoes of the gateway's own sends included: recorded once, by their id), edits and messages
 * taken back. Status broadcasts, reactions and protocol chatter are left out.
 */
export function reportsOfMessages(messages: readonly WAMessage[]): PlatformReport[] {
  const reports: PlatformReport[] = [];
  for (const m of messages) {
    const key = m.key;
    if (!key?.remoteJid || !key.id || !m.message) continue;
    const chat = chatOf(key.remoteJid, (key as { remoteJidAlt?: string }).remoteJidAlt);
    if (!chat) continue;
    const protocol = m.message.protocolMessage;
    if (protocol) {
      const target = protocol.key?.id;
      if (!target) continue;
      if (protocol.type === REVOKE) reports.push({ kind: 'delete', delete: { ...chat, messengerMessageId: target } });
      else if (protocol.type === MESSAGE_EDIT) {
        const text = textOf(protocol.editedMessage);
        if (text !== null) reports.push({ kind: 'edit', edit: { ...chat, messengerMessageId: target, text } });
      }
      continue;
    }
    const text = textOf(m.message);
    if (text === null) continue;
    const fromMe = key.fromMe === true;
    const sender = chat.chatType === 'whatsgroup' ? key.participant : key.remoteJid;
    const quoted = quotedIdOf(m.message);
    reports.push({
      kind: 'message',
      message: {
        ...chat,
        username: null,
        phone: chat.chatType === 'whatsapp' ? chat.chatId : sender ? userOf(sender) : null,
        name: fromMe ? null : (m.pushName ?? null),
        text,
        attachment: null,
        direction: fromMe ? 'outbound' : 'inbound',
        messengerMessageId: key.id,
        ...(quoted ? { quotedMessengerId: quoted } : {}),
        ...(fromMe ? { echo: true } : {}),
      },
    });
  }
  return reports;
}

/** Receipts of the account's own messages: delivered to the phone, read (or played). */
export function reportsOfUpdates(updates: readonly WAMessageUpdate[]): PlatformReport[] {
  const reports: PlatformReport[] = [];
  for (const { key, update } of updates) {
    if (!key.remoteJid || !key.id || !key.fromMe || typeof update.status !== 'number') continue;
    const chat = chatOf(key.remoteJid);
    if (!chat) continue;
    if (update.status === DELIVERY_ACK) reports.push({ kind: 'status', status: { ...chat, messengerMessageId: key.id, status: 'delivered', reason: null } });
    if (update.status === READ || update.status === PLAYED) reports.push({ kind: 'read', read: { ...chat, messengerMessageId: key.id } });
  }
  return reports;
}
