import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/ports.ts';
import { RECEIVER_PATH } from './setup.ts';
import { signatureValid, type WebhookLog } from './webhook-log.ts';

/** The largest delivery the receiver reads: a gateway's webhook is a few kilobytes; anything far beyond is not one. */
export const RECEIVER_BODY_LIMIT = 64 * 1024;

const refuse = (description: string) => ({ error: 'VALIDATION_ERROR', description });

/**
 * The demo CRM's webhook receiver, as a CRM should have one: the signature (Standard Webhooks, with the account's
 * signing secret) is checked before anything of the body is believed or kept, so that whoever finds the address
 * cannot fill the log (or the memory) with deliveries of their own; a signed body that is not JSON is a 400.
 */
export async function mountWebhookReceiver(app: FastifyInstance, deps: { clock: Clock; signingSecret: () => Promise<string>; log: WebhookLog }): Promise<void> {
  await app.register(async (receiver) => {
    receiver.removeContentTypeParser('application/json');
    receiver.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: RECEIVER_BODY_LIMIT }, (_request, body, done) => done(null, body));
    receiver.post<{ Body: string | undefined }>(RECEIVER_PATH, { schema: { hide: true } }, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const now = deps.clock.now();
      if (!signatureValid(await deps.signingSecret(), request.headers, raw, Math.floor(now.getTime() / 1000))) {
        return reply.code(400).send(refuse('The webhook signature is missing, wrong or too old'));
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return reply.code(400).send(refuse('The body is not valid JSON'));
      }
      const event = (body as { event?: unknown } | null)?.event;
      deps.log.add(typeof event === 'string' ? event : '(none)', body, now, Buffer.byteLength(raw));
      return reply.code(204).send();
    });
  });
}
