/**
 * Memory per idle personal WhatsApp session: N sockets of the real library (Baileys 7) opened as the gateway opens
 * them (its adapter, the same options), each linked and connected over a real WebSocket to a loopback fake WhatsApp
 * server (@openclaw/crabline) that completes WhatsApp Web's Noise handshake and then lets it idle (no traffic leaves
 * the machine). Each session's state is kept in memory here rather than in the database, so the figure is the
 * connection's: the library's socket, its signal keys' cache, its keep-alive. The library itself is loaded by a first
 * session that is then closed, and counted apart.
 *
 *   npx node --expose-gc bench/whatsapp-sessions.ts [sessions=50]
 *
 * Goal: at most 30 MB per idle session, 100 sessions in one process. A row of `npm run bench` (100 sessions).
 */
import { fork } from 'node:child_process';
import type { SessionState } from '../src/server/core/sessions/ports.ts';
import { baileysLibrary, loadBaileys } from '../src/server/transports/whatsapp/baileys-socket.ts';
import type { WaSocket } from '../src/server/transports/whatsapp/wa-socket.ts';
import { reportRows } from './lib/report.ts';
import { mb, settledMemory } from './lib/memory.ts';

const count = Number(process.argv[2] ?? 50);
const settle = () => settledMemory(300);

const empty = await settle();
const serverProcess = fork(new URL('./lib/whatsapp-server.ts', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const server = await new Promise<{ url: string; selfJid: string }>((resolve, reject) => {
  serverProcess.once('message', (m) => resolve(m as { url: string; selfJid: string }));
  serverProcess.once('exit', (code) => reject(new Error(`the fake WhatsApp server exited with ${code}`)));
});
const baileys = await loadBaileys();
if (!baileys) throw new Error('the optional package baileys is not installed');
const library = baileysLibrary();

/** A session's state held in memory, linked as a device of the server's account (`device` tells the devices apart). */
function linkedState(device: number): SessionState {
  const values = new Map<string, unknown>();
  const creds = { ...baileys!.initAuthCreds(), me: { id: server.selfJid.replace('@', `:${device}@`), name: 'Bench' } };
  values.set('creds', JSON.parse(JSON.stringify(creds, baileys!.BufferJSON.replacer)));
  return {
    get: async (keys) => Object.fromEntries(keys.flatMap((k) => (values.has(k) ? [[k, values.get(k)]] : []))),
    set: async (entries) => {
      for (const [k, v] of Object.entries(entries)) if (v === null) values.delete(k);
      else values.set(k, v);
    },
    clear: async () => values.clear(),
    end: async () => {},
  };
}

/** Sessions that closed after they opened (a fake that dropped them would make the figure meaningless). */
let dropped = 0;

/** Opens one session and waits until WhatsApp (the fake) has taken it: the connection is open. */
async function openSession(device: number): Promise<WaSocket> {
  const socket = await library.open({ state: linkedState(device), wsUrl: server.url, onStateError: () => {} });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`session ${device} did not open in 30 s`)), 30_000);
    let open = false;
    socket.on('connection.update', (u) => {
      if (u.connection === 'close' && open) dropped++;
      if (u.connection === 'open') {
        open = true;
        clearTimeout(timer);
        resolve();
      }
      if (u.connection === 'close') {
        clearTimeout(timer);
        reject(new Error(`session ${device} closed: ${String((u.lastDisconnect?.error as Error | undefined)?.message)}`));
      }
    });
  });
  return socket;
}

const first = await openSession(1);
first.end();
const before = await settle();
dropped = 0;

const opened: WaSocket[] = [];
const startedAt = performance.now();
for (let i = 0; i < count; i++) opened.push(await openSession(i + 2));
const openMs = performance.now() - startedAt;
// Idle a while: keep-alives pass, the library's caches settle.
await new Promise((resolve) => setTimeout(resolve, 10_000));
const after = await settle();
const perSession = { rssMb: mb((after.rss - before.rss) / count), heapMb: mb((after.heapUsed - before.heapUsed) / count) };
console.log(
  JSON.stringify({
    sessions: count,
    stillOpen: count - dropped,
    // A process with nothing loaded, and one with the library loaded (and the fake server running) but no session.
    emptyRssMb: mb(empty.rss),
    baselineRssMb: mb(before.rss),
    baselineHeapMb: mb(before.heapUsed),
    totalRssMb: mb(after.rss),
    perSession,
    openMsPerSession: Math.round(openMs / count),
    goalMb: 30,
    ok: perSession.rssMb <= 30,
  }),
);
await reportRows([
  {
    row: 'whatsapp-sessions',
    metric: `RSS per idle WhatsApp session (${count} in one process)`,
    unit: 'MB',
    database: null,
    ours: perSession.rssMb,
    baseline: null,
    baselineName: null,
    ratio: null,
    budget: '≤ 30 MB',
    met: perSession.rssMb <= 30 && dropped === 0,
    runs: 1,
    // Against the same process with the library loaded and no session open.
    details: { heap_mb_per_session: perSession.heapMb, still_open: count - dropped, rss_no_session_mb: mb(before.rss), rss_with_sessions_mb: mb(after.rss) },
  },
]);
for (const socket of opened) socket.end();
serverProcess.removeAllListeners('exit');
serverProcess.send({ type: 'stop' });
process.exit(0);
