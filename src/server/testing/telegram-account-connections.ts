import { TelegramClient } from '@mtcute/core/client.js';
import { StubTelegramClient } from '@mtcute/test';
import { nodeRuntime, type TgapiClient, type TgapiClientFactory } from '../transports/tgapi/mtcute-client.ts';
import { rpcError, type Obj } from './telegram-account-tl.ts';

/**
 * The Telegram account fake's connections: the clients each gateway process (`label`) makes, every call they make
 * answered by `answer`, and the network's faults between them and Telegram (a process cut off or killed mid-call,
 * an answer lost, Telegram unreachable for a while, one session used from two processes at once).
 */
export function telegramConnections(answer: (query: Obj) => Obj | Obj[] | boolean) {
  /** The client Telegram pushes updates to now (the last one connected), with its process. */
  let current: { stub: StubTelegramClient; label: string } | null = null;
  /** Processes (by label) whose connections are gone: their clients' calls fail as a dropped connection's would. */
  const severed = new Set<string>();
  /** Clients not closed yet, by process; and the processes refused for using the session while another had it open. */
  const openClients = new Map<string, number>();
  const duplicated: string[] = [];
  /** Which process made each call that reached Telegram, in order. */
  const callers: { label: string; method: string }[] = [];
  const crashes = new Map<string, { label: string; crash: () => Promise<void> }>();
  /** Methods whose next answer is lost on the way back (Telegram did it; the connection dropped before the answer). */
  const lostAnswers = new Set<string>();
  /** While Telegram cannot be reached (a network that drops every packet), calls wait, as unanswered requests do. */
  let network: { reachable: Promise<void>; restore: () => void } | null = null;
  const sever = (label: string) => {
    severed.add(label);
    if (current?.label === label) current = null;
  };
  const connectionLost = () => Object.assign(new Error('the connection to Telegram was lost'), { code: 'ECONNRESET' });

  /** Clients as one process (`label`) makes them; `sever(label)` takes that process off the network. */
  const clientsOf =
    (label: string): TgapiClientFactory =>
    async (): Promise<TgapiClient> => {
      const stub = new StubTelegramClient({ ...(await nodeRuntime()), disableUpdates: false, updates: { catchUp: true } } as never);
      // As the library's own `call` does after the network: errors thrown, and the peers of every answer remembered.
      stub.call = (async (query: Obj) => {
        if (severed.has(label)) throw connectionLost();
        if (network) await network.reachable;
        if (severed.has(label)) throw connectionLost();
        // One session used from two places at once: Telegram refuses both (the product must never let it happen).
        if ([...openClients].some(([other, n]) => other !== label && n > 0 && !severed.has(other))) {
          duplicated.push(label);
          throw rpcError(406, 'AUTH_KEY_DUPLICATED');
        }
        callers.push({ label, method: query._ });
        const result = answer(query);
        if (lostAnswers.delete(query._)) throw connectionLost();
        const crash = crashes.get(query._);
        if (crash?.label === label) {
          // Telegram did what was asked; the process dies before it hears the answer.
          crashes.delete(query._);
          sever(label);
          await crash.crash();
          throw connectionLost();
        }
        await stub.storage.peers.updatePeersFrom(result as never);
        return result;
      }) as never;
      if (!severed.has(label)) current = { stub, label };
      const opened = new TelegramClient({ client: stub });
      openClients.set(label, (openClients.get(label) ?? 0) + 1);
      const destroy = opened.destroy.bind(opened);
      let destroyed = false;
      opened.destroy = async () => {
        if (!destroyed) openClients.set(label, openClients.get(label)! - 1);
        destroyed = true;
        await destroy();
      };
      return { client: opened, storage: stub.mt.storage.provider as never };
    };

  return {
    clientsOf,
    /** The client connected now, which Telegram pushes updates to (null once it went away). */
    current: () => current?.stub ?? null,
    /** The client in use goes away (the gateway stopped): what happens meanwhile waits in the log. */
    disconnect() {
      current = null;
    },
    sever,
    crashAfter(method: string, label: string, crash: () => Promise<void>) {
      crashes.set(method, { label, crash });
    },
    loseAnswerOf(method: string) {
      lostAnswers.add(method);
    },
    unreachable() {
      if (network) return;
      let restore = () => {};
      const reachable = new Promise<void>((resolve) => (restore = resolve));
      network = { reachable, restore };
    },
    reachable() {
      network?.restore();
      network = null;
    },
    openClients: () => [...openClients.values()].reduce((sum, n) => sum + n, 0),
    callers,
    duplicated,
  };
}
