import type { WaSocket } from './wa-socket.ts';

/**
 * "typing…" in the customer's chat for `ms` before a send (a personal channel's pacing asks for it): a person types
 * before a message appears, a robot does not. Presence is best effort: a refusal never holds the send up.
 */
export async function showTyping(socket: WaSocket, jid: string, ms: number, sleep: (ms: number) => Promise<void> = (t) => new Promise((r) => setTimeout(r, t))): Promise<void> {
  if (ms <= 0 || !socket.sendPresenceUpdate) return;
  await socket.sendPresenceUpdate('composing', jid).catch(() => {});
  await sleep(ms);
  await socket.sendPresenceUpdate('paused', jid).catch(() => {});
}
