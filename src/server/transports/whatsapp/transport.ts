import type { Dispatcher } from 'undici';
import { AppError } from '../../core/errors.ts';
import { groupReported } from '../../core/groups/group-changes.ts';
import type { MessageDeps } from '../../core/messages/ports.ts';
import type { SessionHost } from '../../core/sessions/ports.ts';
import type { SessionChannelDeps } from '../../core/sessions/session-channel.ts';
import type { Store } from '../../core/ports.ts';
import type { Clock } from '../../core/ports.ts';
import type { UploadDeps } from '../../core/uploads/uploads.ts';
import type { LiveTransport } from '../live-transport.ts';
import { inboundFiles, ownFileSends } from './media.ts';
import { whatsappMessaging, type KnownNumbers } from './messaging.ts';
import type { Backoff, Liveness } from './liveness.ts';
import { whatsappSessionDriver, type LiveSockets } from './session.ts';
import { SendAcks } from './acks.ts';
import { SendSlots } from './send-slots.ts';
import { WaSessionStats } from './session-stats.ts';
import { realTimers, type Timers } from './timers.ts';
import type { WaLibrary } from './wa-socket.ts';

export interface WhatsAppPersonalDeps {
  library: WaLibrary;
  wsUrl: string | null;
  store: Store;
  clock: Clock;
  renderQr(payload: string): Promise<string>;
  /** Where customers' files are kept, behind the gateway's signed links. */
  uploads: UploadDeps;
  /** The guarded agent the files sends name are fetched through. */
  filesAgent: Dispatcher;
  allowLoopbackFiles: boolean;
  sessions: SessionHost;
  backoff?: Backoff;
  liveness?: Liveness;
  /** How long a send waits for WhatsApp's acknowledgement before it goes back to the queue. */
  ackWaitMs?: number;
  random?: () => number;
  timers?: Timers;
  log(err: unknown, message: string): void;
  note?(fields: { channelId: string; [key: string]: unknown }, message: string): void;
}

/**
 * Personal WhatsApp accounts through WhatsApp Web's protocol: each channel is a long-lived session (run by the process
 * holding its lease), linked by the QR WhatsApp issues or its pairing code. Connecting registers the session; the
 * codes, the scan and the account's messages come from the session as WhatsApp sends them.
 */
export function whatsappPersonalTransport(deps: WhatsAppPersonalDeps): LiveTransport & { pairingCode(channelId: string, phone: string): Promise<string>; stats: WaSessionStats } {
  const timers = deps.timers ?? realTimers;
  const acks = new SendAcks(timers);
  const stats = new WaSessionStats(acks);
  const sockets: LiveSockets = new Map();
  const opened: LiveSockets = new Map();
  const known: KnownNumbers = new Set();
  const ownSends = ownFileSends();
  let messages: MessageDeps | null = null;
  const channels: SessionChannelDeps = { store: deps.store, clock: deps.clock, renderQr: deps.renderQr };
  const session = whatsappSessionDriver(
    {
      library: deps.library,
      wsUrl: deps.wsUrl,
      channels,
      messages: () => messages,
      leases: deps.sessions.leases,
      known,
      files: (channelId, socket) => inboundFiles({ store: deps.store, uploads: deps.uploads, ownSends, log: deps.log }, channelId, socket),
      async group(channelId, report) {
        const channel = await deps.store.channels.getById(channelId);
        if (messages && channel) await groupReported(messages, channel.accountId, channelId, report);
      },
      ...(deps.backoff ? { backoff: deps.backoff } : {}),
      ...(deps.liveness ? { liveness: deps.liveness } : {}),
      ...(deps.random ? { random: deps.random } : {}),
      timers,
      acks,
      stats,
      log: deps.log,
      ...(deps.note ? { note: deps.note } : {}),
    },
    sockets,
    opened,
  );
  return {
    async connect(channelId) {
      // A reinit starts a new link: the device linked before is logged out on WhatsApp (by whichever process runs its
      // session), then the session as it was (and its keys) goes, and a new one is started.
      await deps.sessions.logout(channelId);
      await deps.sessions.leases.remove(channelId);
      await deps.sessions.leases.register(channelId, 'whatsapp');
      // Taken once the channel's row committed (a session is only taken for a channel that exists).
      return { kind: 'qr', fromSession: true, committed: deps.sessions.wake };
    },
    async disconnect(channel) {
      // A deleted channel's device is unlinked from the phone by whichever process runs its session (or one taking it
      // for that); the session goes either way once the logout was tried.
      deps.note?.({ channelId: channel.id }, 'WhatsApp channel deleted: logging the linked device out');
      await deps.sessions.logout(channel.id);
      await deps.sessions.leases.remove(channel.id);
    },
    messaging: whatsappMessaging(sockets, known, { filesAgent: deps.filesAgent, allowLoopbackFiles: deps.allowLoopbackFiles, ownSends }, acks, deps.ackWaitMs, new SendSlots(timers)),
    stats,
    hooks(bound) {
      messages = bound;
      return {};
    },
    session,
    /** Pairing codes are asked of the socket showing the QR, where the channel's session runs (this process). */
    async pairingCode(channelId, phone) {
      const socket = opened.get(channelId);
      if (!socket) throw new AppError('CHANNEL_WRONG_STATUS', 'The channel’s session is not connected in this process; ask again in a moment');
      return socket.requestPairingCode(phone.replace(/\D/g, ''));
    },
  };
}
