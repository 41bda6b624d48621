import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { MessengerAppHook, MessengerFileOpener, MessengerHook } from '../../core/messages/ports.ts';
import { asForeignFile } from '../file-reply.ts';
import { replacingUnstorable } from '../unstorable-text.ts';
import type { AuthorizationReturn } from '../../core/channels/authorization-return.ts';
import { messengerAppHookRoutes } from './messenger-app-hooks.ts';

export interface MessengerHookDeps {
  /** By transport: what reads a platform's callbacks (live drivers only). */
  updates: Readonly<Record<string, MessengerHook>>;
  /** By transport: what opens the files customers sent, behind the gateway's links. */
  files: Readonly<Record<string, MessengerFileOpener>>;
  /** By name: what reads a platform's posts to the app's one address, `/hooks/<name>` (Meta's, for Instagram). */
  apps?: Readonly<Record<string, MessengerAppHook>>;
  /** By transport: where a platform's authorization page sends a channel's owner back (`/hooks/<transport>/authorized`). */
  authorizations?: Readonly<Record<string, AuthorizationReturn>>;
}

const byTransport = <T>(table: Readonly<Record<string, T>>, transport: string): T | undefined => (Object.hasOwn(table, transport) ? table[transport] : undefined);

/**
 * `POST /hooks/<transport>/<channel id>`: where a real platform posts a channel's updates (the address its live
 * driver registered when the channel was connected). No token: each transport checks the channel's own secret, in a
 * header, or in the address's query where the platform signs nothing and takes no secret of its own (Avito).
 * A 2xx tells the platform the update is taken, so it is sent only once the update is recorded (or not wanted);
 * its body is what the transport had to answer (`respond`), `{ok: true}` otherwise.
 */
export const messengerHookRoutes: FastifyPluginAsyncTypebox<MessengerHookDeps> = async (app, deps) => {
  // A context of their own: they keep the body's bytes, for the platform's signature over them.
  if (deps.apps && Object.keys(deps.apps).length > 0) await app.register(messengerAppHookRoutes, { apps: deps.apps });
  // A platform's update keeps its words with U+FFFD for each NUL or lone surrogate, which PostgreSQL cannot store: refusing it would
  // only make the platform send it again. Rewritten in the text, in one pass, before it is parsed (and before the
  // channel's secret is checked: the body comes from anyone). A parser of these routes' own.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => parseJson(request, replacingUnstorable(body.toString()), done));
  app.post(
    '/hooks/:transport/:channel_id',
    {
      schema: {
        hide: true,
        params: Type.Object({ transport: Type.String({ maxLength: 32 }), channel_id: Type.String({ format: 'uuid' }) }),
      },
    },
    async (request, reply) => {
      const hook = byTransport(deps.updates, request.params.transport);
      if (!hook) return reply.code(404).send({ error: 'NOT_FOUND', description: 'No such hook' });
      let answer: Record<string, unknown> | undefined;
      let text: string | undefined;
      const outcome = await hook({
        channelId: request.params.channel_id,
        headers: request.headers,
        query: request.query as Record<string, unknown>,
        body: request.body,
        respond: (body) => void (answer = body),
        respondText: (words) => void (text = words),
      });
      if (outcome === 'unauthorized') return reply.code(401).send({ error: 'UNAUTHORIZED', description: 'The channel’s secret did not match' });
      if (outcome === 'unavailable') return reply.code(503).send({ error: 'SERVICE_UNAVAILABLE', description: 'The channel cannot take updates now; send again later' });
      if (text !== undefined) return reply.code(200).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(text);
      return reply.code(200).send(answer ?? { ok: true });
    },
  );

  app.get(
    '/hooks/:transport/:channel_id/files/:file_id',
    {
      // A HEAD would fetch the whole file from the platform only to drop it.
      exposeHeadRoute: false,
      schema: {
        hide: true,
        params: Type.Object({ transport: Type.String({ maxLength: 32 }), channel_id: Type.String({ format: 'uuid' }), file_id: Type.String({ maxLength: 512 }) }),
        querystring: Type.Object({ signature: Type.String({ maxLength: 128 }) }),
      },
    },
    async (request, reply) => {
      const open = byTransport(deps.files, request.params.transport);
      // A range under `If-Range` is for a version the client holds; the gateway gives no validators to match it
      // against, so such a request gets the whole file, as RFC 9110 says for a validator that does not match.
      const range = request.headers['if-range'] === undefined ? request.headers.range : undefined;
      const link = { channelId: request.params.channel_id, fileId: request.params.file_id, signature: request.query.signature };
      const file = open ? await open(range === undefined ? link : { ...link, range }) : null;
      if (file === 'forbidden') return reply.code(403).send({ error: 'FORBIDDEN', description: 'The link is not valid' });
      if (!file) return reply.code(404).send({ error: 'NOT_FOUND', description: 'The file is no longer available' });
      if ('rangeNotSatisfiable' in file) {
        if (file.size !== null) reply.header('content-range', `bytes */${file.size}`);
        return reply.code(416).header('cache-control', 'no-store').send({ error: 'RANGE_NOT_SATISFIABLE', description: 'The file has no such part' });
      }
      if (file.size !== null) reply.header('content-length', file.size);
      if (file.acceptsRanges) reply.header('accept-ranges', 'bytes');
      // A part is never stored: without validators (ETag, Last-Modified) a cache cannot join parts into the file,
      // and one that does not read `content-range` would keep the part as the whole file under this address.
      if (file.contentRange !== undefined) reply.code(206).header('content-range', file.contentRange);
      return asForeignFile(reply, file.contentType)
        .header('cache-control', file.contentRange === undefined ? 'private, max-age=86400' : 'private, no-store')
        .send(file.stream);
    },
  );
};
