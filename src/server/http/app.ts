import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { EmbeddingDeps } from '../core/embedding/ports.ts';
import { AppError } from '../core/errors.ts';
import type { ChannelDeps } from '../core/channels/ports.ts';
import type { MessageDeps } from '../core/messages/ports.ts';
import type { ExportDeps } from '../core/exports/ports.ts';
import type { UploadDeps } from '../core/uploads/uploads.ts';
import type { Clock, Store } from '../core/ports.ts';
import type { CredentialsCipher } from '../core/channels/ports.ts';
import type { HostResolver, UrlPolicy } from '../core/webhooks/url-policy.ts';
import type { WebhookSender } from '../core/webhooks/delivery.ts';
import { authPlugin } from './plugins/auth.ts';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors.ts';
import { metricsPlugin, type MetricsOptions } from './plugins/metrics.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { rateLimitPlugin } from './rate-limit/plugin.ts';
import type { WindowCounter } from './rate-limit/window-counter.ts';
import { downloadRoutes } from './routes/downloads.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes } from './routes/health.ts';
import { sandboxAuthorizePage } from './routes/sandbox/authorize-page.ts';
import { sandboxChannelRoutes } from './routes/sandbox/channels.ts';
import { sandboxGroupRoutes } from './routes/sandbox/groups.ts';
import { sandboxMessagingRoutes } from './routes/sandbox/messaging.ts';
import { sandboxPhonePage } from './routes/sandbox/phone-page.ts';
import { sandboxPhoneRoutes } from './routes/sandbox/phone.ts';
import { sandboxPhoneFeedRoutes } from './routes/sandbox/phone-feed.ts';
import { accountRoutes } from './routes/v2/accounts.ts';
import { oauthRoutes } from './routes/v2/oauth.ts';
import { oauthAuthorizePage } from './routes/v2/oauth-authorize.ts';
import { wabaBalanceRoutes } from './routes/v2/waba-balance.ts';
import type { AuthDeps } from '../core/auth/ports.ts';
import type { SignInLimiter } from './rate-limit/sign-in-limiter.ts';
import { channelRoutes } from './routes/v2/channels.ts';
import { channelPacingRoutes } from './routes/v2/channel-pacing.ts';
import { messageRoutes } from './routes/v2/messages.ts';
import { contactRoutes } from './routes/v2/contacts.ts';
import { embeddingRoutes } from './routes/v2/embedding.ts';
import { iframeLinkRoutes } from './routes/v2/iframe-links.ts';
import { userRoutes } from './routes/v2/users.ts';
import { crmRoutes } from './routes/v2/crm.ts';
import { sandboxTemplateRoutes } from './routes/sandbox/templates.ts';
import { exportRoutes } from './routes/v2/exports.ts';
import { templateRoutes } from './routes/v2/templates.ts';
import type { TemplatePlatform } from '../core/templates/ports.ts';
import { webhookRoutes } from './routes/v2/webhooks.ts';
import { v3Routes } from './routes/v3/index.ts';
import { authorizationReturnRoutes } from './routes/authorization-returns.ts';
import { messengerHookRoutes, type MessengerHookDeps } from './routes/messenger-hooks.ts';
import { requestLogPlugin } from './request-log.ts';
import type { FailedAuthLimiter } from './rate-limit/failed-auth.ts';
import { mayHoldUnstorable, unstorableBodyRefusal } from './unstorable-text.ts';
import { validatorCompiler } from './validation.ts';

export interface HttpDeps {
  store: Store;
  clock: Clock;
  partnerKeyHash: string;
  rateLimitCounter: WindowCounter;
  /** Failed authentications by caller address (rate-limit/failed-auth.ts); not limited when absent. */
  failedAuth?: FailedAuthLimiter;
  urlPolicy: UrlPolicy;
  channels: ChannelDeps;
  messages: MessageDeps;
  exports: ExportDeps;
  /** Files agents attach in the chat frame, served behind their signed links. */
  uploads: UploadDeps;
  /** The simulated messenger network is connected: its API and pages are served. */
  sandbox: boolean;
  resolveHost: HostResolver;
  /** Seals webhook signing secrets at rest. */
  webhookSealer: CredentialsCipher;
  /** POSTs webhooks; the v3 address's test POST goes through it too. */
  webhookSender: WebhookSender;
  checkReady(): Promise<void>;
  /** Whether an error says the database cannot be reached (noting it): answered 503 with Retry-After. */
  databaseUnavailable?(err: unknown): boolean;
  /** True while the database is known to be away: API requests are answered 503 at once rather than queued. */
  databaseDown?(): boolean;
  /** True once shutdown began: responses then close their connection, so keep-alive clients let go. */
  isStopping(): boolean;
  publicUrl: string;
  version: string;
  /** Built widget (Vite's output); served at / when present. */
  widgetDir: string | null;
  logger: FastifyServerOptions['logger'];
  /** Iframe links, allowed origins and the frames' sessions (absent where only the HTTP shell is built). */
  embedding?: EmbeddingDeps;
  /** Which proxies to believe about the caller's address (Config.trustProxy); none when absent. */
  trustProxy?: boolean | number | string[];
  /** The live drivers' callbacks and file links by transport (`/hooks/<transport>/<channel id>`); none in the sandbox. */
  messengerHooks?: MessengerHookDeps;
  /** Partners' Basic logins, OAuth and the partner API's accounts; only the HTTP shell goes without. */
  oauth?: AuthDeps & { failures: SignInLimiter };
  /** Prometheus metrics at `/metrics`, for a scraper with the token (METRICS_TOKEN); none when absent. */
  metrics?: MetricsOptions;
  /** The platform that moderates wapi channels' templates (live: Meta's template API); the sandbox's moderation without it. */
  templatePlatform?: TemplatePlatform | null;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The routes that cannot answer without the database (the API and the frames'); health, docs and pages can. */
const DATABASE_PATHS = /^\/(v2|v3|bff)\//;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The HTTP composition root: plugins in dependency order, then routes per resource. */
export async function buildHttpApp(deps: HttpDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger,
    // Honour a caller's request id when it is safe to log; otherwise mint one.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // `/v2/channels/` is `/v2/channels`: published clients of both faces write either.
    routerOptions: { ignoreTrailingSlash: true },
    // A hop count trusts that many proxies nearest to us (what proxy-addr does with a number).
    trustProxy: typeof deps.trustProxy === 'number' ? trustHops(deps.trustProxy) : (deps.trustProxy ?? false),
    // Fastify's own 503 while closing has a body outside our error model; the hook below answers instead.
    return503OnClosing: false,
    // The router's and the HTTP parser's own refusals, in our error shape.
    frameworkErrors,
    clientErrorHandler,
    // One summary per request instead (request-log.ts): at info only for errors and slow requests.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // Clients that put `Content-Type: application/json` on every request send it on a DELETE with no body too:
  // an empty body is no body. Anything else goes to Fastify's own parser (and its prototype-poisoning guards).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    // PostgreSQL cannot store U+0000 or a lone surrogate: a body that may hold one is walked, and refused naming the field.
    parseJson(request, text, (err, parsed) => {
      const refusal = !err && mayHoldUnstorable(text) ? unstorableBodyRefusal(parsed) : null;
      if (refusal) done(refusal, undefined);
      else done(err, parsed);
    });
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (deps.isStopping()) throw new AppError('SERVICE_UNAVAILABLE', 'Service is shutting down');
    if (deps.databaseDown?.() && DATABASE_PATHS.test(request.url)) {
      reply.header('retry-after', '5');
      throw new AppError('SERVICE_UNAVAILABLE', 'The database cannot be reached at the moment; try again shortly');
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    if (deps.isStopping()) reply.header('connection', 'close');
  });

  await app.register(errorsPlugin, deps.databaseUnavailable ? { databaseUnavailable: deps.databaseUnavailable } : {});
  await app.register(requestLogPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(openApiPlugin, { publicUrl: deps.publicUrl, version: deps.version });
  await app.register(healthRoutes, { checkReady: deps.checkReady });
  if (deps.metrics) await app.register(metricsPlugin, deps.metrics);

  await app.register(
    async (v2) => {
      const oauth = deps.oauth;
      await v2.register(authPlugin, {
        tokens: deps.store.tokens,
        partnerKeyHash: deps.partnerKeyHash,
        failedAuth: deps.failedAuth,
        ...(oauth ? { oauth: { auth: oauth.auth, clock: deps.clock, failures: oauth.failures } } : {}),
      });
      await v2.register(rateLimitPlugin, { counter: deps.rateLimitCounter, clock: deps.clock });
      if (oauth) {
        await v2.register(accountRoutes, { store: deps.store, clock: deps.clock, auth: oauth.auth, plan: deps.channels.plan, live: deps.embedding?.live });
        await v2.register(oauthRoutes, oauth);
        await v2.register(wabaBalanceRoutes, { store: deps.store, clock: deps.clock, auth: oauth.auth });
      }
      await v2.register(channelRoutes, deps.channels);
      await v2.register(channelPacingRoutes, deps.channels);
      await v2.register(messageRoutes, deps.messages);
      if (deps.sandbox) {
        await v2.register(sandboxChannelRoutes, deps.channels);
        await v2.register(sandboxMessagingRoutes, deps.messages);
        await v2.register(sandboxGroupRoutes, deps.messages);
        await v2.register(sandboxPhoneRoutes, deps.messages);
        await v2.register(sandboxPhoneFeedRoutes, deps.messages);
      }
      if (deps.embedding) await v2.register(iframeLinkRoutes, deps.embedding);
      if (deps.embedding) await v2.register(embeddingRoutes, deps.embedding);
      await v2.register(userRoutes, { store: deps.store, clock: deps.clock });
      await v2.register(contactRoutes, { store: deps.store, clock: deps.clock });
      await v2.register(crmRoutes, { store: deps.store, clock: deps.clock, platform: deps.templatePlatform ?? null });
      await v2.register(templateRoutes, { store: deps.store, clock: deps.clock });
      await v2.register(exportRoutes, deps.exports);
      if (deps.sandbox) await v2.register(sandboxTemplateRoutes, { store: deps.store, clock: deps.clock });
      await v2.register(webhookRoutes, {
        store: deps.store,
        clock: deps.clock,
        urlPolicy: deps.urlPolicy,
        resolveHost: deps.resolveHost,
        sealer: deps.webhookSealer,
      });
    },
    { prefix: '/v2' },
  );
  const auth = {
    tokens: deps.store.tokens,
    partnerKeyHash: deps.partnerKeyHash,
    failedAuth: deps.failedAuth,
    ...(deps.oauth ? { oauth: { auth: deps.oauth.auth, clock: deps.clock, failures: deps.oauth.failures } } : {}),
  };
  await app.register(v3Routes, {
    prefix: '/v3',
    store: deps.store,
    clock: deps.clock,
    auth,
    rateLimit: { counter: deps.rateLimitCounter, clock: deps.clock },
    channels: deps.channels,
    messages: deps.messages,
    ...(deps.embedding ? { embedding: deps.embedding } : {}),
    urlPolicy: deps.urlPolicy,
    resolveHost: deps.resolveHost,
    webhookSealer: deps.webhookSealer,
    webhookSender: deps.webhookSender,
    templatePlatform: deps.templatePlatform ?? null,
    publicUrl: deps.publicUrl,
  });
  if (deps.oauth) await app.register(oauthAuthorizePage, { ...deps.oauth, prefix: '/v2' });
  if (deps.sandbox) await app.register(sandboxAuthorizePage, { ...deps.channels, publicUrl: deps.publicUrl });
  if (deps.sandbox) await app.register(sandboxPhonePage);
  await app.register(downloadRoutes, deps.exports);
  await app.register(fileRoutes, deps.uploads);
  if (deps.messengerHooks) await app.register(messengerHookRoutes, deps.messengerHooks);
  const returns = deps.messengerHooks?.authorizations;
  if (returns && Object.keys(returns).length > 0) await app.register(authorizationReturnRoutes, { returns, channels: deps.channels });

  if (deps.widgetDir && existsSync(deps.widgetDir)) {
    // `/` is the demo CRM's outside production (src/server/demo), so the widget's shell is not also served there.
    await app.register(fastifyStatic, { root: deps.widgetDir, prefix: '/', wildcard: false, index: false });
  }
  return app;
}
