/**
 * The baseline of the cost row, in a process of its own: a bare Fastify route `POST /v2/messages` that parses
 * the same JSON body, commits one row (the message's id, chat and text) and then answers the same envelope,
 * with no authentication, validation, queue, send or events. What a durable accept costs at the least, on
 * the same database: PostgreSQL when DATABASE_URL is set (a pool of 10, as the gateway's), else PGlite in a
 * fresh data directory with the gateway's settings (its work is then this process's, as it is the gateway's).
 * Tells the parent its URL over IPC; exits on `stop`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import pg from 'pg';
import { seedFromTemplate } from '../../src/server/storage/database-template.ts';
import { embeddedOptions } from '../../src/server/storage/embedded-settings.ts';

const TABLE = `create table if not exists bare_messages (
  id uuid primary key, chat_id text not null, text text, created_at timestamptz not null)`;
const INSERT = 'insert into bare_messages (id, chat_id, text, created_at) values ($1, $2, $3, $4)';

let insert: (values: unknown[]) => Promise<unknown>;
let close: () => Promise<void>;
if (process.env.DATABASE_URL) {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  await pool.query(TABLE);
  // Named, so that the server parses and plans it once per connection, as the gateway's statements are.
  insert = (values) => pool.query({ name: 'bare_insert', text: INSERT, values });
  close = () => pool.end();
} else {
  const dir = await mkdtemp(join(tmpdir(), 'gw-bench-bare-'));
  await seedFromTemplate(join(dir, 'pgdata'));
  const db = await PGlite.create(join(dir, 'pgdata'), embeddedOptions());
  await db.exec(TABLE);
  insert = (values) => db.query(INSERT, values);
  close = () => db.close().then(() => rm(dir, { recursive: true, force: true }));
}

const app = Fastify({ logger: false });
app.post('/v2/messages', async (request, reply) => {
  const body = request.body as { recipient?: { chat_id?: string }; text?: string };
  const id = randomUUID();
  await insert([id, body.recipient?.chat_id ?? '', body.text ?? null, new Date()]);
  return reply.code(201).send({ data: { request_id: id, chat_id: body.recipient?.chat_id ?? null }, meta: { timestamp: Math.floor(Date.now() / 1000) } });
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ url: address });
process.on('message', (m: { type: string }) => {
  if (m.type === 'stop') void app.close().then(close).then(() => process.exit(0));
});
