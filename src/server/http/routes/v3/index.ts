import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ChannelDeps, CredentialsCipher } from '../../../core/channels/ports.ts';
import type { EmbeddingDeps } from '../../../core/embedding/ports.ts';
import type { MessageDeps } from '../../../core/messages/ports.ts';
import type { Clock, Store } from '../../../core/ports.ts';
import type { TemplatePlatform } from '../../../core/templates/ports.ts';
import type { HostResolver, UrlPolicy } from '../../../core/webhooks/url-policy.ts';
import type { WebhookSender } from '../../../core/webhooks/delivery.ts';
import { authPlugin, type AuthOptions } from '../../plugins/auth.ts';
import { rateLimitPlugin, type RateLimitOptions } from '../../rate-limit/plugin.ts';
import { v3ChannelRoutes } from './channels.ts';
import { v3ContactRoutes } from './contacts.ts';
import { v3CounterTemplateRoutes } from './counters-templates.ts';
import { v3DealRoutes } from './deals.ts';
import { v3ErrorHandler } from './errors.ts';
import { v3IframeRoutes } from './iframe.ts';
import { v3MessageRoutes } from './messages.ts';
import { v3UserRoutes } from './users.ts';
import { v3WebhookRoutes } from './webhooks.ts';

/** What the v3 face is built from: the same core as /v2, under its own routes, formatters and error words. */
export interface V3Deps {
  store: Store;
  clock: Clock;
  /** The same credentials as /v2: the account's client token is its API key; OAuth access tokens and sidecar keys too. */
  auth: AuthOptions;
  /** The same limit as /v2, counted per key. */
  rateLimit: RateLimitOptions;
  channels: ChannelDeps;
  messages: MessageDeps;
  /** Chat-frame links and the counter's feed; absent where only the HTTP shell is built. */
  embedding?: EmbeddingDeps;
  urlPolicy: UrlPolicy;
  resolveHost: HostResolver;
  /** Seals webhook signing secrets at rest. */
  webhookSealer: CredentialsCipher;
  /** POSTs the v3 address's test request, with the same address checks as every delivery. */
  webhookSender: WebhookSender;
  templatePlatform: TemplatePlatform | null;
  publicUrl: string;
}

/**
 * The v3 face, registered under `/v3`. Every route is authenticated as in /v2 (`config.access`: `client` by default,
 * `sidecar` where a sidecar key may call) and rate limited with it; handlers read the caller with `v3CallerOf`.
 * Refusals are answered by `v3ErrorHandler` in v3's words; throw `V3Error` for a v3-only code.
 */
export const v3Routes: FastifyPluginAsyncTypebox<V3Deps> = async (app, deps) => {
  app.setErrorHandler(v3ErrorHandler(app.errorHandler));
  await app.register(authPlugin, deps.auth);
  await app.register(rateLimitPlugin, deps.rateLimit);
  await app.register(v3ChannelRoutes, deps.channels);
  await app.register(v3MessageRoutes, deps.messages);
  const crm = { store: deps.store, clock: deps.clock };
  await app.register(v3UserRoutes, crm);
  await app.register(v3ContactRoutes, crm);
  await app.register(v3DealRoutes, crm);
  await app.register(v3CounterTemplateRoutes, crm);
  if (deps.embedding) await app.register(v3IframeRoutes, deps.embedding);
  // `deps` came with this plugin's own `prefix`: passed on as it is, the routes would sit under /v3/v3.
  await app.register(v3WebhookRoutes, { ...deps, prefix: '' });
};
