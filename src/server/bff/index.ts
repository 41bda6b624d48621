import type { FastifyInstance } from 'fastify';
import type { BffDeps } from './deps.ts';
import { embedPageRoutes } from './embed-page.ts';
import { bffPlugin } from './plugin.ts';
import type { CounterFeed } from './realtime/counter-feed.ts';
import type { RealtimeHub } from './realtime/hub.ts';

export { createRealtimeHub, type RealtimeHub } from './realtime/hub.ts';
export { createCounterFeed, type CounterFeed } from './realtime/counter-feed.ts';
export { accountOfCounterKey } from './realtime/counter-key.ts';
export type { BffDeps, SessionLimiter } from './deps.ts';

/**
 * Everything the embedded frames use on the gateway's HTTP server: the frame page (/embed/*), the frames' API
 * (/bff) and the realtime hub (socket.io at /bff/socket.io), which is closed before the server is; and the v3
 * counter feed (socket.io at /ws-counters/).
 */
export async function mountEmbedding(app: FastifyInstance, deps: BffDeps, hub: RealtimeHub, counterFeed?: CounterFeed): Promise<void> {
  await app.register(embedPageRoutes, deps);
  // The prefix is given to a wrapper: options passed to a plugin are handed on to the plugins it registers.
  await app.register(async (scope) => scope.register(bffPlugin, deps), { prefix: '/bff' });
  hub.attach(app.server);
  app.addHook('preClose', async () => hub.close());
  // The v3 unanswered counter's socket.io feed (/ws-counters/), beside the frames' on the same server.
  if (counterFeed) {
    counterFeed.attach(app.server);
    app.addHook('preClose', async () => counterFeed.close());
  }
}
