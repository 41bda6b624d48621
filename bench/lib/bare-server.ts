/**
 * The baseline of the accept benchmark, in a process of its own: a bare Fastify route `POST /v2/messages` that
 * parses the same JSON body and answers the same envelope (`201 {data: {request_id, chat_id}, meta}`), with no
 * authentication, validation or database. Tells the parent its URL over IPC; exits on `stop`. Also the footprint
 * bench's bare Fastify process.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/v2/messages', async (request, reply) => {
  const body = request.body as { recipient?: { chat_id?: string } };
  return reply.code(201).send({ data: { request_id: randomUUID(), chat_id: body.recipient?.chat_id ?? null }, meta: { timestamp: Math.floor(Date.now() / 1000) } });
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ url: address });
process.on('message', (m: { type: string }) => {
  if (m.type === 'stop') void app.close().then(() => process.exit(0));
  // A full collection before a memory reading (the footprint bench starts this process with --expose-gc).
  if (m.type === 'gc') {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({});
  }
});
