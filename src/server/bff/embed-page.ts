import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { frameAncestors } from '../core/embedding/origins.ts';
import type { BffDeps } from './deps.ts';

const SCREENS = new Set(['chats', 'channels']);

/**
 * What the frame page may load and talk to: its scripts, styles and API calls (socket.io's WebSocket included) only
 * from the gateway's own origin, so an injected tag could neither run nor send anything elsewhere. Pictures and
 * media may come from anywhere over http(s): a message's attachment is shown from the address it was sent with.
 */
export const FRAME_PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: https: http:",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** Served when the widget has not been built (`npm run build`), so the frame page still works. */
const FALLBACK_SHELL = page('Messaging gateway', '<div id="root"></div><p>The widget is not built.</p>');
const INVALID_LINK = page('Link not valid', '<p>This link is not valid. Ask the page that embeds it for a new one.</p>');

/**
 * The frame page, `/embed/chats?link=…` and `/embed/channels?link=…`: the built widget, sent with the
 * `frame-ancestors` of the link's account, so only the account's allowed origins may frame it. A link whose
 * signature fails (or that names the other screen) gets a page no one may frame; an expired one still gets
 * the widget (with 401), which then tells its host to fetch a new link.
 */
export const embedPageRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  let shell: Promise<string> | null = null;
  const loadShell = () =>
    (shell ??= deps.widgetDir ? readFile(join(deps.widgetDir, 'index.html'), 'utf8').catch(() => FALLBACK_SHELL) : Promise.resolve(FALLBACK_SHELL));

  app.get(
    '/embed/:screen',
    {
      config: { frameable: true },
      schema: {
        hide: true,
        params: Type.Object({ screen: Type.String({ maxLength: 32 }) }),
        querystring: Type.Object({ link: Type.Optional(Type.String({ maxLength: 16_384 })) }),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8');
      const { screen } = request.params;
      const link = request.query.link;
      const check = link && SCREENS.has(screen) ? await deps.links.verify(link, deps.clock.now()) : ({ status: 'invalid' } as const);
      if (check.status === 'invalid' || check.claims.kind !== screen) {
        reply.header('Content-Security-Policy', "frame-ancestors 'none'").header('X-Frame-Options', 'DENY');
        return reply.code(SCREENS.has(screen) ? 401 : 404).send(INVALID_LINK);
      }
      const origins = await deps.store.embeddingOrigins.list(check.claims.accountId);
      reply.header('Content-Security-Policy', `${FRAME_PAGE_POLICY}; ${frameAncestors(origins)}`);
      return reply.code(check.status === 'valid' ? 200 : 401).send(await loadShell());
    },
  );
};
