import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../storage/database.ts';
import { eventually } from './eventually.ts';
import { callJson, spawnGateway, type SpawnedGateway } from './spawned-gateway.ts';
import type { TestDatabase } from './test-database.ts';

/**
 * Watching a long-lived session move between gateway processes, straight in the database all of them share: who
 * holds its lease, and how long after a moment (a kill, a SIGTERM) another process held it.
 */

/** The process holding the session's live lease now (null: nobody, or a lapsed lease). */
export async function liveOwner(db: Database['db'], channelId: string): Promise<string | null> {
  const { rows } = await sql<{ owner: string | null }>`
    select owner from sessions where channel_id = ${channelId} and owner is not null and lease_until > now()`.execute(db);
  return rows[0]?.owner ?? null;
}

/**
 * Waits until a live lease on the session is held by another process than `previous`, polling every 50 ms from
 * `since` (a `performance.now()` reading); answers the new owner and the milliseconds it took.
 */
export async function nextOwner(db: Database['db'], channelId: string, previous: string | null, since: number, timeoutMs = 30_000): Promise<{ owner: string; ms: number }> {
  for (;;) {
    const owner = await liveOwner(db, channelId);
    const ms = performance.now() - since;
    if (owner !== null && owner !== previous) return { owner, ms };
    if (ms > timeoutMs) throw new Error(`nobody took session ${channelId} over within ${timeoutMs} ms (held by ${owner ?? 'nobody'})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How often each text was recorded in the messages table, by direction. */
export async function recordedTexts(db: Database['db'], direction: 'inbound' | 'outbound', texts: readonly string[]): Promise<Record<string, number>> {
  const { rows } = await sql<{ text: string; n: number }>`
    select text, count(*)::int as n from messages where direction = ${direction} and text = any(${[...texts]}::text[]) group by text`.execute(db);
  return Object.fromEntries(texts.map((text) => [text, rows.find((r) => r.text === text)?.n ?? 0]));
}

/** The statuses of the sends with these request ids, by request id. */
export async function sendStatuses(db: Database['db'], requestIds: readonly string[]): Promise<Record<string, string>> {
  const { rows } = await sql<{ request_id: string; status: string }>`
    select request_id::text, status from messages where request_id = any(${[...requestIds]}::uuid[])`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.request_id, r.status]));
}

/**
 * Gateway processes (spawned, on one PostgreSQL) that a WhatsApp session moves between, with what each test of that
 * kind does the same way: start a process with the session's settings, make the account and its client token through
 * the first one, send to the customer through any of them, wait for sends to be `sent`, and clean up.
 */
export interface WhatsAppProcesses {
  gateways: SpawnedGateway[];
  /** The shared database, opened by this test process (set once `open` ran). */
  direct: Database;
  /** The account made through the first process. */
  accountId: string;
  token: string;
  /** Starts the first process, opens the database beside it, and makes the account with a client token. */
  open(accountName: string): Promise<SpawnedGateway>;
  start(): Promise<SpawnedGateway>;
  /** Processes neither killed nor exited. */
  alive(): SpawnedGateway[];
  send(via: SpawnedGateway, text: string): Promise<string>;
  allSent(requestIds: string[], timeoutMs: number): Promise<Record<string, string>>;
  close(): Promise<void>;
}

export function whatsappProcesses(input: {
  database: () => TestDatabase;
  secretKey: string;
  leaseSeconds: number;
  channelId: string;
  customer: string;
  /** WHATSAPP_WS_URL, asked for when each process starts (the fake server's, or a relay's). */
  wsUrl: () => string;
  dataDirPrefix: string;
}): WhatsAppProcesses {
  const dataDirs: string[] = [];
  const partnerKey = randomBytes(24).toString('base64url');
  const processes: WhatsAppProcesses = {
    gateways: [],
    direct: null as unknown as Database,
    accountId: '',
    token: '',
    async start() {
      const database = input.database();
      if (database.target.kind !== 'postgres') throw new Error('PostgreSQL expected');
      const dataDir = await mkdtemp(join(tmpdir(), input.dataDirPrefix));
      dataDirs.push(dataDir);
      const env = { SECRET_KEY: input.secretKey, TRANSPORT_MODE: 'live', WHATSAPP_PERSONAL: 'on', WHATSAPP_WS_URL: input.wsUrl(), SESSION_LEASE_SECONDS: String(input.leaseSeconds) };
      // Names the process's database connections, so that a test can end them by it.
      const gateway = await spawnGateway({ dataDir, databaseUrl: database.target.url, partnerKey, env: { ...env, PGAPPNAME: `${input.dataDirPrefix}gateway-${processes.gateways.length}` } });
      processes.gateways.push(gateway);
      return gateway;
    },
    async open(accountName) {
      const first = await processes.start();
      processes.direct = await openDatabase(input.database().target);
      processes.accountId = (await callJson<{ account_id: string }>(first.baseURL, 'POST', '/v2/accounts', partnerKey, { name: accountName })).data.account_id;
      processes.token = (await callJson<{ token: string }>(first.baseURL, 'POST', `/v2/accounts/${processes.accountId}/tokens`, partnerKey, { kind: 'client' })).data.token;
      return first;
    },
    alive: () => processes.gateways.filter((g) => g.child.exitCode === null && g.child.signalCode === null),
    async send(via, text) {
      const body = { channel_id: input.channelId, recipient: { chat_type: 'whatsapp', chat_id: input.customer }, text };
      const res = await callJson<{ request_id: string }>(via.baseURL, 'POST', '/v2/messages', processes.token, body);
      if (res.status !== 201) throw new Error(`the send was answered ${res.status}`);
      return res.data.request_id;
    },
    allSent: (requestIds, timeoutMs) =>
      eventually(async () => {
        const statuses = await sendStatuses(processes.direct.db, requestIds);
        return requestIds.every((id) => statuses[id] === 'sent') ? statuses : undefined;
      }, timeoutMs),
    async close() {
      await Promise.all(processes.gateways.map((g) => g.kill()));
      await (processes.direct as Database | null)?.close();
      await Promise.all(dataDirs.map((d) => rm(d, { recursive: true, force: true })));
    },
  };
  return processes;
}
