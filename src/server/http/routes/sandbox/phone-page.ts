import { readFile } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { toolPagePolicy } from '../../tool-page-policy.ts';

const PAGE = new URL('../../../../../public/phone/', import.meta.url);

/**
 * The sandbox phone, `/sandbox/phone/`: a page that plays the other side of the sandbox network (the customer, the
 * phone that scans, the platform) through the `/v2/sandbox` calls, with the account's client token.
 */
export const sandboxPhonePage: FastifyPluginAsync = async (app) => {
  // It holds the account's token: no script but its own may run on it. Set before the reply, so that the security
  // headers add their refusal to be framed.
  const policy = toolPagePolicy();
  app.addHook('onRequest', async (_request, reply) => void reply.header('Content-Security-Policy', policy));
  await app.register(fastifyStatic, { root: PAGE, prefix: '/sandbox/phone/', decorateReply: false, index: 'index.html' });
  // Its files are named relative to the folder, so the address without the slash leads to the one with it. The
  // router takes both spellings for this route (paths ignore a trailing slash), so the one with it is the page itself.
  let page: Promise<Buffer> | null = null;
  app.get('/sandbox/phone', { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.indexOf('?');
    const path = query >= 0 ? request.url.slice(0, query) : request.url;
    if (path.endsWith('/')) return reply.type('text/html; charset=utf-8').send(await (page ??= readFile(new URL('index.html', PAGE))));
    return reply.redirect(`/sandbox/phone/${query >= 0 ? request.url.slice(query) : ''}`);
  });
};
