import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { whatsappChatIdOf } from '../../core/messages/whatsapp-numbers.ts';
import type { WhatsAppDeps } from './account.ts';

/**
 * Which chat a customer's WhatsApp id (`wa_id`) belongs in. Meta answers a send with the customer's WhatsApp id
 * (`contacts[].wa_id`, beside the `input` the send gave), and the customer's messages and the reports on the sends
 * name them by it; it may differ from the number the CRM wrote (a Brazilian mobile written with its ninth digit, an
 * account made before the digit was added: `5511987654321` in, `551187654321` out; an Argentine mobile without the 9
 * Meta puts after 54). The send remembers such a WhatsApp id in the peer directory, the chat's id as its `handle`, so
 * that what comes from it lands in the CRM's chat. A WhatsApp id no send remembered goes to the chat of its other
 * form where one exists (whatsapp-numbers.ts: a chat the CRM opened before this was remembered), else to its own.
 */

type Deps = Pick<WhatsAppDeps, 'peers' | 'store' | 'clock'>;

/**
 * A send to `chatId` reached `waId`: remembered when they differ. The last send's answer wins: a send straight to the
 * WhatsApp id (the CRM opened the chat of that form since) takes back what an earlier send to another form remembered.
 */
export async function rememberWaId(deps: Deps, channelId: string, chatId: string, waId: string): Promise<void> {
  if (waId === chatId) {
    const remembered = await deps.peers.byPeerId(channelId, waId);
    if (remembered && remembered.handle !== chatId) await deps.peers.save(channelId, { ...remembered, handle: chatId, checkedAt: deps.clock.now() });
    return;
  }
  await deps.peers.save(channelId, { peerId: waId, handle: chatId, name: null, checkedAt: deps.clock.now() });
}

/** The chat id each WhatsApp id goes to. */
async function chatIdsOf(deps: Deps, channelId: string, waIds: Iterable<string>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const waId of waIds) {
    const remembered = await deps.peers.byPeerId(channelId, waId);
    found.set(waId, remembered?.handle ?? (await whatsappChatIdOf(deps.store.chats, channelId, waId)));
  }
  return found;
}

/** A change's messages and reports, each in the chat its customer's WhatsApp id belongs in. */
export async function inCustomersChats(deps: Deps, channelId: string, reports: PlatformReport[]): Promise<PlatformReport[]> {
  const waIds = new Set(reports.flatMap((r) => (r.kind === 'message' ? [r.message.chatId] : r.kind === 'status' ? [r.status.chatId] : [])));
  const chatIds = await chatIdsOf(deps, channelId, waIds);
  return reports.map((r) => {
    if (r.kind === 'message') return { ...r, message: { ...r.message, chatId: chatIds.get(r.message.chatId) ?? r.message.chatId } };
    if (r.kind === 'status') return { ...r, status: { ...r.status, chatId: chatIds.get(r.status.chatId) ?? r.status.chatId } };
    return r;
  });
}
