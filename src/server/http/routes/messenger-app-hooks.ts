import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { MessengerAppHook } from '../../core/messages/ports.ts';
import { replacingUnstorable } from '../unstorable-text.ts';

/**
 * Meta batches up to a thousand events in one post; a post refused for its size would be posted again and again, so
 * the limit is well above what a batch of messages takes (the body is read before its signature is checked).
 */
const BODY_LIMIT_BYTES = 4 * 1024 * 1024;

const byName = (table: Readonly<Record<string, MessengerAppHook>>, name: string): MessengerAppHook | undefined => (Object.hasOwn(table, name) ? table[name] : undefined);

/**
 * `GET` and `POST /hooks/<app>`: the one address where a platform posts the updates of every account the gateway's
 * app on it serves (Meta's webhooks for Instagram, at `/hooks/instagram`). No token: the transport checks the
 * platform's signature over the body's exact bytes, so the body is kept as it came (whatever its content type) and
 * read as JSON only when asked. The GET answers the platform's check of the address with its challenge, as plain
 * text, or 403 when it does not carry the app's verify token.
 */
export const messengerAppHookRoutes: FastifyPluginAsyncTypebox<{ apps: Readonly<Record<string, MessengerAppHook>> }> = async (app, { apps }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
  const params = Type.Object({ app: Type.String({ maxLength: 32 }) });

  app.get('/hooks/:app', { schema: { hide: true, params } }, async (request, reply) => {
    const hook = byName(apps, request.params.app);
    if (!hook) return reply.code(404).send({ error: 'NOT_FOUND', description: 'No such hook' });
    const challenge = hook.verify(request.query as Record<string, unknown>);
    if (challenge === null) return reply.code(403).send({ error: 'FORBIDDEN', description: 'The verify token did not match' });
    return reply.code(200).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(challenge);
  });

  app.post('/hooks/:app', { bodyLimit: BODY_LIMIT_BYTES, schema: { hide: true, params } }, async (request, reply) => {
    const hook = byName(apps, request.params.app);
    if (!hook) return reply.code(404).send({ error: 'NOT_FOUND', description: 'No such hook' });
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const json = () => {
      try {
        return JSON.parse(replacingUnstorable(rawBody.toString('utf8'))) as unknown;
      } catch {
        return undefined;
      }
    };
    const outcome = await hook.receive({ headers: request.headers, rawBody, json });
    if (outcome === 'unauthorized') return reply.code(401).send({ error: 'UNAUTHORIZED', description: 'The signature did not match' });
    if (outcome === 'unavailable') return reply.code(503).send({ error: 'SERVICE_UNAVAILABLE', description: 'Not all of it could be taken now; send it again later' });
    return reply.code(200).send({ ok: true });
  });
};
