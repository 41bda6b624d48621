import type { Dispatcher } from 'undici';
import { qrScanned } from '../../core/channels/messenger-events.ts';
import type { ChannelDeps } from '../../core/channels/ports.ts';
import { AppError } from '../../core/errors.ts';
import { groupReported } from '../../core/groups/group-changes.ts';
import { platformReports } from '../../core/messages/platform-reports.ts';
import type { MessageDeps } from '../../core/messages/ports.ts';
import type { SessionHost } from '../../core/sessions/ports.ts';
import { fileLinks } from '../bot-common.ts';
import type { CallPacer } from '../call-pacer.ts';
import type { LiveTransport } from '../live-transport.ts';
import { firstQrs } from './first-qr.ts';
import { tgapiMessaging } from './messaging.ts';
import type { TgapiClientFactory } from './mtcute-client.ts';
import { retryLater, passwordThrottle } from './password-throttle.ts';
import { floodWaitSeconds } from './refusals.ts';
import { tgapiSessions, type TgapiHost } from './tgapi-sessions.ts';

export interface TgapiTransportDeps {
  clients: TgapiClientFactory;
  publicUrl: string;
  /** Signs the links to customers' files (a key of its own, derived from SECRET_KEY). */
  linkKey: Buffer;
  /** The sessions' leases: a logged-in account's session is registered, and this process's runner woken. */
  sessions: SessionHost;
  /** The channel use-cases (the scan and password steps report there); given late, as the gateway builds them after. */
  channels(): ChannelDeps;
  /** A platform no longer takes a channel's credentials: the channel is switched off (`disabled`/`unauthorized`). */
  revoked(channelId: string, sealed: string | null): Promise<void>;
  pacer: CallPacer;
  filesAgent: Dispatcher;
  allowLoopbackFiles: boolean;
  warn(err: unknown, message: string): void;
}

/** A wait Telegram asked for (FLOOD_WAIT) on a login step, as the API answers it: 429 with `retry_after`. */
function floodRefusal(err: unknown, step: string): AppError | null {
  const seconds = floodWaitSeconds(err);
  return seconds === null ? null : retryLater(seconds, `Telegram asks to wait before the next ${step} (FLOOD_WAIT_${seconds})`);
}

const notHere = (step: string) =>
  new AppError('SERVICE_UNAVAILABLE', `The ${step} of this channel is served by the gateway process that started its login; try again, or reinit the channel`);

/** The channel's store record, for reports that know the channel only by id. */
async function channelOf(deps: TgapiTransportDeps, channelId: string) {
  const channel = await deps.channels().store.channels.getById(channelId);
  if (!channel) throw new Error(`channel ${channelId} is gone`);
  return channel;
}

/** The host side of the sessions: what the channel and message use-cases make of what a session reports. */
function host(deps: TgapiTransportDeps, messages: () => MessageDeps): TgapiHost {
  const links = fileLinks(deps.linkKey, deps.publicUrl, 'tgapi');
  return {
    async scanned(channelId, scan) {
      const channelDeps = deps.channels();
      const channel = await channelOf(deps, channelId);
      if (scan.needsPassword) {
        // Who scanned is known only once the password is given: the phone compared is the channel's own until then.
        await qrScanned(channelDeps, channel.accountId, channelId, { phone: channel.phone ?? '', needsPassword: true, profile: {} });
        return;
      }
      const { user } = scan;
      const profile = { username: user.username, name: user.displayName || null, messengerId: String(user.id) };
      if (!scan.viaPassword) {
        await qrScanned(channelDeps, channel.accountId, channelId, { phone: user.phoneNumber ?? '', needsPassword: false, profile });
        return;
      }
      // The password let the account in: the channel learns whose it is (the password step then makes it active).
      await channelDeps.store.transaction(async (tx) => {
        const current = await tx.channels.getByIdForUpdate(channelId);
        if (current) await tx.channels.update({ ...current, ...profile, phone: user.phoneNumber ?? current.phone, updatedAt: channelDeps.clock.now() });
      });
    },
    async loggedIn(channelId) {
      await deps.sessions.leases.register(channelId, 'tgapi');
      deps.sessions.wake();
    },
    async ended(channelId) {
      const channel = await deps.channels().store.channels.getById(channelId);
      await deps.sessions.leases.remove(channelId);
      if (channel) await deps.revoked(channelId, channel.credentials);
    },
    async reports(channelId, reports) {
      return (await platformReports(messages(), channelId, reports)) !== 'not_yet';
    },
    typing(channelId, chat) {
      messages().typingHeard?.({ channelId, ...chat });
    },
    async members(channelId, group) {
      const channel = await channelOf(deps, channelId);
      await groupReported(messages(), channel.accountId, channelId, { chatType: 'telegroup', chatId: group.chatId, name: group.name, members: group.members });
    },
    fileLink: (channelId, chatId, messageId) => links.url(channelId, `${chatId}:${messageId}`),
    warn: deps.warn,
  };
}

/**
 * Personal Telegram accounts over MTProto: connected by a QR of Telegram's login token (then the account's two-factor
 * password, checked by SRP), each account's connection a session held by one gateway process at a time.
 */
export function tgapiTransport(deps: TgapiTransportDeps) {
  let messageDeps: MessageDeps | null = null;
  const messages = () => {
    if (!messageDeps) throw new Error('the tgapi transport is not wired to the message use-cases yet');
    return messageDeps;
  };
  const sessions = tgapiSessions(deps.clients, () => host(deps, messages));
  const messaging = tgapiMessaging({
    session: (channelId) => sessions.local(channelId),
    pacer: deps.pacer,
    filesAgent: deps.filesAgent,
    allowLoopbackFiles: deps.allowLoopbackFiles,
    ended: (channelId) => host(deps, messages).ended(channelId),
    remember: sessions.remember,
  });
  const firstQr = firstQrs({
    channels: deps.channels,
    async freshLink(channelId) {
      return (await sessions.login(channelId)).loginLink();
    },
    abandon: (channelId) => sessions.dropLogin(channelId),
    warn: deps.warn,
  });
  const passwords = passwordThrottle(() => deps.channels().clock);

  const transport: LiveTransport = {
    async connect(channelId) {
      // A reinit logs in afresh: the session the channel had (another account's, maybe) is logged out on Telegram by
      // whichever process runs it, and let go, first.
      await deps.sessions.logout(channelId);
      await deps.sessions.leases.remove(channelId);
      // Answered at once: Telegram is reached in the background, and the first code shown once it gave a token.
      return { kind: 'qr', fromSession: true, committed: () => firstQr.start(channelId) };
    },
    async disconnect(channel) {
      // The held session is logged out where it runs; a login still under way here (no lease yet) is ended here.
      await deps.sessions.logout(channel.id);
      await sessions.local(channel.id)?.logOut();
      await deps.sessions.leases.remove(channel.id);
    },
    messaging,
    hooks(given) {
      messageDeps = given;
      return {};
    },
    registrar: {
      transport: 'tgapi',
      // Nothing is registered with Telegram for a session: its connection is its subscription.
      fingerprint: 'tgapi/session',
      refresh: async () => 'registered',
      withdraw: async () => {},
    },
    session: sessions.driver,
  };

  return {
    transport,
    /** A fresh login link for the channel's QR (each code shown is a new token). */
    async newQrPayload(channelId: string): Promise<string> {
      const prepared = firstQr.take(channelId);
      if (prepared) return prepared;
      const session = sessions.local(channelId) ?? (await sessions.login(channelId));
      if (session.ready) throw notHere('QR');
      try {
        return await session.loginLink();
      } catch (err) {
        throw floodRefusal(err, 'login code') ?? err;
      }
    },
    /**
     * The account's two-factor password. After WRONG_PASSWORDS_ALLOWED wrong ones in a row, or while a wait Telegram
     * asked for runs, the step is refused (429) before anything reaches Telegram.
     */
    async checkTwoFactor(channelId: string, password: string): Promise<boolean> {
      const retryAfter = passwords.retryAfter(channelId);
      if (retryAfter > 0) throw retryLater(retryAfter, 'Too many two-factor password tries for this channel');
      const session = sessions.local(channelId);
      if (!session) throw notHere('password step');
      let accepted: boolean;
      try {
        accepted = await session.checkPassword(password);
      } catch (err) {
        const seconds = floodWaitSeconds(err);
        if (seconds !== null) passwords.hold(channelId, seconds);
        throw floodRefusal(err, 'two-factor password') ?? err;
      }
      if (accepted) passwords.right(channelId);
      else passwords.wrong(channelId);
      return accepted;
    },
    async close() {
      firstQr.close();
      await sessions.closeAll();
    },
  };
}

export type TgapiTransport = ReturnType<typeof tgapiTransport>;
