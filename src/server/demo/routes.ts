import { readFile } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/ports.ts';
import type { DemoAccount } from './account.ts';
import { toolPagePolicy } from '../http/tool-page-policy.ts';
import { gatewayClient, type GatewayClient } from './crm-client.ts';
import { demoPageOrigins, reachableBase, RECEIVER_PATH, setUpDemoCrm } from './setup.ts';
import { mountWebhookReceiver } from './receiver.ts';
import { webhookLog } from './webhook-log.ts';

const PAGES = new URL('../../../public/demo/', import.meta.url);

/** The contact the demo CRM's card shows: a WhatsApp customer the sandbox phone can play. */
export const DEMO_CONTACT = { name: 'Anna Petrova', phone: '79161234567' } as const;
const AGENT = { id: 'demo-agent', name: 'Demo agent' } as const;

export interface DemoCrm {
  /** The gateway listens: the demo's server may call it from now on. */
  listening(address: string): void;
}

/**
 * The demo CRM at `/`: its page (public/demo/) and the small server part a CRM of its own would have. The server
 * holds the account's token, asks the gateway for frame links, receives and checks the webhooks, and lets the page
 * read what arrived. Served only outside production, for the demo account that the first start creates.
 */
export async function mountDemoCrm(app: FastifyInstance, deps: { clock: Clock; publicUrl: string; sandbox: boolean; account: () => Promise<DemoAccount | null> }): Promise<DemoCrm> {
  let base: string | null = null;
  let ready: Promise<{ api: GatewayClient; account: DemoAccount; signingSecret: string }> | null = null;
  const log = webhookLog();

  // Set up on the first visit, so a gateway nobody demonstrates stays as it was; tried again after a failure.
  const crm = () =>
    (ready ??= (async () => {
      const account = await deps.account();
      if (!account || !base) throw new Error('the demo account is not available');
      const api = gatewayClient(base, account.token);
      const { signingSecret } = await setUpDemoCrm(api, demoPageOrigins(deps.publicUrl, base), `${base}${RECEIVER_PATH}`);
      return { api, account, signingSecret };
    })().catch((err: unknown) => {
      ready = null;
      throw err;
    }));

  // The page's scripts only, and the frames it embeds from the gateway's public address.
  const policy = toolPagePolicy([new URL(deps.publicUrl).origin]);
  const index = () => readFile(new URL('index.html', PAGES), 'utf8');
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').header('Content-Security-Policy', policy).send(await index()),
  );
  await app.register(fastifyStatic, { root: PAGES, prefix: '/demo/', decorateReply: false, index: false, setHeaders: (reply) => void reply.header('Content-Security-Policy', policy) });

  // What the page needs to start: who it is, and where the sandbox phone is (with the token, in the fragment,
  // which browsers never send to a server).
  app.get('/demo/api/session', { schema: { hide: true } }, async () => {
    const { account } = await crm();
    return {
      account_id: account.account_id,
      contact: DEMO_CONTACT,
      agent: AGENT,
      // The phone plays the sandbox network only: live channels have real phones.
      phone_url: !deps.sandbox ? null : `/sandbox/phone/?${new URLSearchParams({ customer: DEMO_CONTACT.phone, name: DEMO_CONTACT.name })}#token=${encodeURIComponent(account.token)}`,
    };
  });

  // A CRM's server asks for frame links with its token, never its page: the token stays on the server.
  app.post<{ Body: { scope?: string; lang?: string; theme?: string } }>('/demo/api/links/chats', { schema: { hide: true } }, async (request) => {
    const { api } = await crm();
    const options = { lang: ['ru', 'es', 'pt'].includes(request.body?.lang ?? '') ? request.body!.lang! : 'en', theme: request.body?.theme === 'dark' ? 'dark' : 'light' };
    const card = request.body?.scope === 'card';
    return api.call('POST', '/iframe-links/chats', {
      user: AGENT,
      scope: card ? 'card' : 'global',
      ...(card ? { chats: [{ chat_type: 'whatsapp', chat_id: DEMO_CONTACT.phone, contact_name: DEMO_CONTACT.name }] } : {}),
      options,
    });
  });
  app.post('/demo/api/links/channels', { schema: { hide: true } }, async () => {
    const { api } = await crm();
    return api.call('POST', '/iframe-links/channels', { user: AGENT });
  });

  // The receiver: every delivery is checked against the signing secret before it is believed or kept.
  await mountWebhookReceiver(app, { clock: deps.clock, signingSecret: async () => (await crm()).signingSecret, log });
  app.get<{ Querystring: { after?: string } }>('/demo/api/log', { schema: { hide: true } }, async (request) => ({ entries: log.after(Number(request.query.after ?? 0) || 0) }));

  return { listening: (address) => void (base = reachableBase(address)) };
}
