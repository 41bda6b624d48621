import { LRUCache } from 'lru-cache';
import type { ChatType } from '../../../contract/channels.ts';
import type { GroupMember } from '../../core/groups/ports.ts';
import type { PlatformReport } from '../../core/messages/platform-reports.ts';
import { SessionLeaseLost, type RunningSession, type SessionContext, type SessionDriver, type SessionState } from '../../core/sessions/ports.ts';
import { AccountSession, type TgUser } from './account-session.ts';
import type { TgapiClientFactory } from './mtcute-client.ts';
import { listenForUpdates } from './updates.ts';

/** Where a channel's session reports to: the gateway's channel and message use-cases. */
export interface TgapiHost {
  /** The QR was scanned (`user` known), or a password is needed first; or the password let the account in. */
  scanned(channelId: string, scan: { needsPassword: true } | { needsPassword: false; user: TgUser; viaPassword: boolean }): Promise<void>;
  /** The account is logged in: its session is handed to the process that will hold it (the lease is registered). */
  loggedIn(channelId: string): Promise<void>;
  /** Telegram ended the session: the channel is logged out (`disabled`/`unauthorized`). */
  ended(channelId: string): Promise<void>;
  /** What the account heard, recorded; false when the channel cannot take it yet (it is still being connected). */
  reports(channelId: string, reports: PlatformReport[]): Promise<boolean>;
  /** A customer is typing in a chat of the channel (told to the frames only). */
  typing(channelId: string, chat: { chatType: ChatType; chatId: string; stopped?: true }): void;
  members(channelId: string, group: { chatId: string; name: string | null; members: GroupMember[] }): Promise<void>;
  fileLink(channelId: string, chatId: string, messageId: number): string;
  warn(err: unknown, message: string): void;
}

/** The state key of the library's memory (keys, update state, peers), and of the chats of recent message numbers. */
const MEMORY_KEY = 'mtcute';
const RECENT_KEY = 'recent_chats';
/** Message numbers whose chat is remembered per session (a deletion in a private chat names the number only). */
const RECENT_CHATS = 5_000;
/** How long an update waits, at most, for its channel to finish connecting (the scan's sync) before it is given up. */
const NOT_YET_TRIES = 40;
const NOT_YET_WAIT_MS = 250;

type RecentChat = { chatType: ChatType; chatId: string };

/** Where a session's state goes: nowhere yet while it logs in (no lease), then the lease's sealed state. */
interface StateSlot {
  state: SessionState | null;
  latest: string | null;
}

/**
 * The personal accounts' sessions of this process. A login (QR, password) runs where the channel was connected, with
 * no lease yet: the channel may not be stored at that moment. Once the account is in, its session is registered and
 * handed to this process's session runner, which holds it from then on (its state sealed in the database); another
 * process takes it over from that state when this one stops or dies.
 */
export function tgapiSessions(clients: TgapiClientFactory, host: () => TgapiHost) {
  const running = new Map<string, { session: AccountSession; slot: StateSlot }>();
  const recent = new Map<string, LRUCache<number, RecentChat>>();
  const recentOf = (channelId: string) => {
    let cache = recent.get(channelId);
    if (!cache) recent.set(channelId, (cache = new LRUCache<number, RecentChat>({ max: RECENT_CHATS })));
    return cache;
  };

  async function report(channelId: string, reports: PlatformReport[]): Promise<void> {
    for (const r of reports) if (r.kind === 'message') recentOf(channelId).set(Number(r.message.messengerMessageId), { chatType: r.message.chatType, chatId: r.message.chatId });
    // Updates heard between the scan and the channel's sync wait for it: recorded once it is active.
    for (let attempt = 0; attempt < NOT_YET_TRIES; attempt++) {
      if (await host().reports(channelId, reports)) return;
      await new Promise((resolve) => setTimeout(resolve, NOT_YET_WAIT_MS));
    }
    throw new Error(`channel ${channelId} did not become active to record ${reports.length} update(s)`);
  }

  async function persist(channelId: string, slot: StateSlot, snapshot: string): Promise<void> {
    slot.latest = snapshot;
    if (!slot.state) return;
    try {
      await slot.state.set({ [MEMORY_KEY]: snapshot, [RECENT_KEY]: recentOf(channelId).dump() });
    } catch (err) {
      // Another process holds the session now: this connection stops and writes nothing more.
      if (!(err instanceof SessionLeaseLost)) throw err;
      const here = running.get(channelId);
      if (here?.slot === slot) running.delete(channelId);
      void here?.session.close();
    }
  }

  async function open(channelId: string, memory: string | null, slot: StateSlot): Promise<AccountSession> {
    const session = await AccountSession.open(clients, memory, {
      scanned: async (scan) => {
        await host().scanned(channelId, scan);
        if (!scan.needsPassword) await host().loggedIn(channelId);
      },
      ended: async () => {
        if (running.get(channelId)?.session === session) running.delete(channelId);
        await slot.state?.clear().catch(() => {});
        await host().ended(channelId);
      },
      persist: (snapshot) => persist(channelId, slot, snapshot),
      warn: (err, message) => host().warn(err, `${message} (channel ${channelId})`),
      listen: (client, track) =>
        listenForUpdates(
          client,
          {
            reports: (reports) => report(channelId, reports),
            typing: (chat) => host().typing(channelId, chat),
            members: (group) => host().members(channelId, group),
            fileLink: (chatId, messageId) => host().fileLink(channelId, chatId, messageId),
          },
          track,
          (messageId) => recentOf(channelId).get(messageId),
        ),
    });
    running.set(channelId, { session, slot });
    return session;
  }

  /** The runner gives this process the session: the login made here is adopted, else it opens from the stored state. */
  async function start(context: SessionContext): Promise<RunningSession> {
    const { channelId, state } = context;
    const here = running.get(channelId);
    let session: AccountSession;
    let slot: StateSlot;
    if (here && !here.slot.state) {
      ({ session, slot } = here);
      slot.state = state;
      if (slot.latest) await persist(channelId, slot, slot.latest);
    } else {
      const stored = await state.get([MEMORY_KEY, RECENT_KEY]);
      if (Array.isArray(stored[RECENT_KEY])) recentOf(channelId).load(stored[RECENT_KEY] as never);
      slot = { state, latest: null };
      session = await open(channelId, typeof stored[MEMORY_KEY] === 'string' ? stored[MEMORY_KEY] : null, slot);
    }
    const stop = async () => {
      if (running.get(channelId)?.session === session) running.delete(channelId);
      await session.close();
    };
    context.signal.addEventListener('abort', () => void stop(), { once: true });
    const logout = async () => {
      if (running.get(channelId)?.session === session) running.delete(channelId);
      await session.logOut();
    };
    return { stop, logout };
  }

  /** Logs out a session that runs nowhere: its client opened from the stored state for that alone, hearing nothing. */
  async function logout(context: SessionContext): Promise<void> {
    const stored = await context.state.get([MEMORY_KEY]);
    if (typeof stored[MEMORY_KEY] !== 'string') return;
    const session = await AccountSession.open(clients, stored[MEMORY_KEY], {
      scanned: async () => {},
      ended: async () => {},
      persist: async () => {},
      warn: (err, message) => host().warn(err, `${message} (channel ${context.channelId})`),
      listen: () => {},
    });
    await session.logOut();
  }

  const driver: SessionDriver = { transport: 'tgapi', start, logout };
  return {
    driver,
    /** The channel's session, when this process runs it (logging in, or held). */
    local: (channelId: string) => running.get(channelId)?.session,
    /** A new login for the channel (a connect or reinit): the session it had here before is closed. */
    async login(channelId: string): Promise<AccountSession> {
      const before = running.get(channelId);
      running.delete(channelId);
      await before?.session.close();
      return open(channelId, null, { state: null, latest: null });
    },
    /** Closes the channel's login here, if it is still logging in (a logged-in session is left to its runner). */
    async dropLogin(channelId: string): Promise<void> {
      const here = running.get(channelId);
      if (!here || here.session.ready || here.slot.state) return;
      running.delete(channelId);
      await here.session.close();
    },
    /** Remembers the chat of a message number the account sent (its deletion may name the number only). */
    remember: (channelId: string, messageId: number, chat: RecentChat) => void recentOf(channelId).set(messageId, chat),
    async closeAll(): Promise<void> {
      const all = [...running.values()];
      running.clear();
      await Promise.all(all.map(({ session }) => session.close()));
    },
  };
}

export type TgapiSessions = ReturnType<typeof tgapiSessions>;
