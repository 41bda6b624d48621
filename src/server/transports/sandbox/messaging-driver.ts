import { randomUUID } from 'node:crypto';
import type { Transport } from '../../../contract/channels.ts';
import type { FailureReason } from '../../../contract/messages.ts';
import type { TransportRulesRegistry } from '../../core/channels/transport-rules.ts';
import type { MessagingDriver, OutboundMessage, SendOutcome, TypingRef } from '../../core/messages/ports.ts';
import type { Clock } from '../../core/ports.ts';
import { sandboxChatIdFor, type SandboxStateRepository } from '../../core/sandbox/ports.ts';

const HOUR_MS = 60 * 60 * 1000;
const groupTypes = new Set(['whatsgroup', 'telegroup', 'maxgroup']);

/** Who may not write first, and how each platform words the refusal (docs/decisions.md "The sandbox"). */
const firstContactRefusal: Partial<Record<Transport, FailureReason>> = {
  telegram: 'messages_not_text_first_from_telegram_bot',
  maxbot: 'contact_can_not_create',
  instAPI: 'messages_not_text_first',
  avito: 'messages_not_text_first',
};

const failed = (reason: FailureReason): SendOutcome => ({ kind: 'failed', reason });

/**
 * Sending into the simulated network. It enforces what only the messenger knows (text length, unknown
 * numbers, blocked customers, bots and instagram not writing first, the business API's reply window) and
 * delivers at once. Each request id is received once, so a retry after a crash never delivers twice.
 */
export function sandboxMessagingDriver(deps: {
  sandbox: SandboxStateRepository;
  rules: TransportRulesRegistry;
  clock: Clock;
  /** Where the account's typing goes: the customers' phones listening to the chat. */
  typing?: (chat: TypingRef) => void;
  /** The answer's round trip: the network has the message, the gateway does not know yet. */
  latencyMs?: number;
}): MessagingDriver {
  async function refusal(m: OutboundMessage, chatId: string): Promise<FailureReason | null> {
    const capabilities = deps.rules[m.transport].capabilities;
    if (m.text !== null && [...m.text].length > capabilities.text_limit) return 'text_length_is_too_much';
    const customer = await deps.sandbox.customer(m.channelId, m.chatType, chatId);
    if (groupTypes.has(m.chatType)) return customer ? null : 'channel_private';
    if (customer?.state === 'missing') return m.chatType === 'telegram' || m.chatType === 'max' ? 'contact_can_not_create' : 'bad_contact';
    if (customer?.state === 'blocked') return 'chat_is_blocked';
    const windowHours = capabilities.reply_window_hours;
    if (windowHours !== null) {
      const windowOpen = customer?.lastInboundAt != null && deps.clock.now().getTime() - customer.lastInboundAt.getTime() < windowHours * HOUR_MS;
      if (windowOpen || m.template !== null) return null;
      // The business API's templates start a conversation anew; where there are none the customer must write first.
      return capabilities.templates ? 'over_24_hour_limit' : (firstContactRefusal[m.transport] ?? 'messages_not_text_first');
    }
    if (!capabilities.can_write_first && !customer?.wroteFirst) return firstContactRefusal[m.transport] ?? 'messages_not_text_first';
    return null;
  }

  return {
    async send(m) {
      const byName = m.username !== null ? { username: m.username } : { phone: m.phone };
      if (m.chatId === null) {
        const lookup = await deps.sandbox.customer(m.channelId, m.chatType, m.username !== null ? `@${m.username}` : `+${m.phone}`);
        if (lookup?.state === 'missing') return failed('contact_can_not_create');
      }
      const chatId = m.chatId ?? sandboxChatIdFor(byName);
      const reason = await refusal(m, chatId);
      if (reason) return failed(reason);
      const received = await deps.sandbox.receiveOnce({
        requestId: m.requestId,
        channelId: m.channelId,
        chatId,
        messengerMessageId: `sbx-${randomUUID()}`,
        receivedAt: deps.clock.now(),
      });
      if (deps.latencyMs) await new Promise((resolve) => setTimeout(resolve, deps.latencyMs));
      return { kind: 'sent', messengerMessageId: received.messengerMessageId, chatId: received.chatId, delivered: true };
    },
    async edit() {},
    async remove() {},
    // The network shows the account's reaction on the customer's phone, which reads it from the chat as recorded.
    async react() {},
    async sendTyping(chat) {
      deps.typing?.(chat);
    },
  };
}
