import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bearerToken } from '../../contract/authorization.ts';
import { AppError } from '../core/errors.ts';
import { authenticateSession } from '../core/embedding/sessions.ts';
import type { BffDeps } from './deps.ts';
import { assertSessionScopes } from './frame-scopes.ts';
import './guards.ts';
import { channelRoutes } from './routes/channels.ts';
import { channelPacingRoutes } from './routes/channel-pacing.ts';
import { chatRoutes } from './routes/chats.ts';
import { chatToolRoutes } from './routes/chat-tools.ts';
import { crmRoutes } from './routes/crm.ts';
import { messageRoutes } from './routes/messages.ts';
import { typingRoutes } from './routes/typing.ts';
import { quickReplyRoutes } from './routes/quick-replies.ts';
import { nameRoutes } from './routes/names.ts';
import { sessionRoutes } from './routes/session.ts';
import { templateRoutes } from './routes/templates.ts';
import { uploadRoutes } from './routes/uploads.ts';

/**
 * The frames' API (mounted at /bff). Every route but the link exchange needs `Authorization: Bearer <session
 * token>`; each session has its own rate-limit window, the exchange one per address. Routes are thin: they
 * check the session's scope with the guards and call the same core use-cases as /v2. One file per resource
 * under routes/.
 */
export const bffPlugin: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  app.decorateRequest('embedSession', null);
  app.addHook('onRequest', async (request, reply) => {
    // The link exchange has no session yet: its window is the caller's address, so no one can hammer the
    // signature check.
    if (request.routeOptions.config.session === false) return deps.limit(`bff-exchange:${request.ip}`, request, reply);
    const token = bearerToken(request.headers.authorization);
    const check = async () => (token ? authenticateSession(deps, token) : null);
    // Counted before the token is looked up: a burst of guesses is checked no further than the limit.
    const outcome = deps.failedAuth ? await deps.failedAuth.attempt(request.ip, check) : { kind: 'checked' as const, session: await check() };
    if (outcome.kind === 'refused') {
      reply.header('Retry-After', String(outcome.retryAfterSeconds));
      throw new AppError('TOO_MANY_REQUESTS', 'Too many failed authentications from this address', { retry_after: outcome.retryAfterSeconds });
    }
    const session = outcome.kind === 'passed' ? outcome.value : outcome.kind === 'checked' ? outcome.session : null;
    if (!session) throw new AppError('UNAUTHORIZED', 'Missing, invalid or expired session token');
    assertSessionScopes(session, request.method, request.routeOptions.url ?? '');
    request.embedSession = session;
    // The account's shared window first, then the session's own, whose tighter figures the headers then show.
    await deps.accountLimit?.(`bff-account:${session.accountId}`, request, reply);
    await deps.limit(`bff:${session.id}`, request, reply);
  });
  // Session-scoped answers must never be cached by a browser or a proxy.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });

  await app.register(sessionRoutes, deps);
  await app.register(channelRoutes, deps);
  await app.register(channelPacingRoutes, deps);
  await app.register(nameRoutes, deps);
  await app.register(messageRoutes, deps);
  await app.register(typingRoutes, deps);
  await app.register(quickReplyRoutes, deps);
  await app.register(chatRoutes, deps);
  await app.register(chatToolRoutes, deps);
  await app.register(templateRoutes, deps);
  await app.register(uploadRoutes, deps);
  await app.register(crmRoutes, deps);
};
