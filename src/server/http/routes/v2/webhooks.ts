import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import {
  AttemptLogQuery,
  CreateWebhooksBody,
  DeleteWebhooksBody,
  DeliveryLogQuery,
  RedeliverBody,
  Redelivery,
  SigningSecret,
  SubscriptionsAnswer,
  UpdateWebhooksBody,
  WebhookAttempt,
  WebhookDelivery,
  WebhookIdParams,
  WebhookSettings,
  WebhookSubscription,
} from '../../../../contract/webhooks.ts';
import { ErrorBody } from '../../../../contract/errors.ts';
import {
  getSigningSecret,
  getWebhookSettings,
  rotateSigningSecret,
  updateWebhookSettings,
  type WebhookSettingsDeps,
} from '../../../core/webhooks/account-settings.ts';
import { listAttempts, listDeliveries, redeliver } from '../../../core/webhooks/delivery-log.ts';
import {
  createSubscriptions,
  deleteSubscriptions,
  listSubscriptions,
  updateSubscriptions,
  type SubscriptionOutcome,
  type WebhookDeps,
} from '../../../core/webhooks/subscriptions.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { authErrors, withNotFound } from '../errors.ts';

export type WebhookRouteDeps = WebhookDeps & WebhookSettingsDeps;

/** Webhook subscriptions of the calling account (each call all-or-nothing), its signing secret, and the delivery log. */
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRouteDeps> = async (app, deps) => {
  const tags = ['webhooks'];
  const List = Envelope(Type.Array(WebhookSubscription));
  const answered = ({ subscriptions, refused }: SubscriptionOutcome) => {
    const body = envelope(deps.clock, subscriptions);
    return refused.length > 0 ? { ...body, meta: { ...body.meta, refused } } : body;
  };

  app.get('/webhooks', { schema: { tags, summary: 'List subscriptions', response: { 200: List, ...authErrors } } }, async (request) =>
    envelope(deps.clock, await listSubscriptions(deps, accountOf(request).accountId)),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Subscribe to events',
        description:
          'Each URL must be HTTPS and resolve only to public addresses; otherwise the whole call is refused with 400 `WEBHOOK_URL_NOT_ALLOWED`, naming each item and why. `channel.update` is a deprecated alias of `channel.status_update`. ' +
          'The same `url` and `event` again answers the existing subscription (enabled again if disabled) rather than a second one. ' +
          'Items naming an unknown event are left out and listed in `meta.refused`; the others are subscribed.',
        body: CreateWebhooksBody,
        response: { 201: SubscriptionsAnswer, ...authErrors },
      },
    },
    async (request, reply) => reply.code(201).send(answered(await createSubscriptions(deps, accountOf(request).accountId, request.body.data))),
  );

  app.patch(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Change subscriptions',
        description: 'Changes address and event; a disabled subscription is enabled again.',
        body: UpdateWebhooksBody,
        response: { 200: SubscriptionsAnswer, ...withNotFound },
      },
    },
    async (request) => answered(await updateSubscriptions(deps, accountOf(request).accountId, request.body.data)),
  );

  app.delete(
    '/webhooks',
    { schema: { tags, summary: 'Remove subscriptions', body: DeleteWebhooksBody, response: { 200: NullEnvelope, ...withNotFound } } },
    async (request) => {
      await deleteSubscriptions(deps, accountOf(request).accountId, request.body.data.map((d) => d.id));
      return envelope(deps.clock, null);
    },
  );

  app.get(
    '/webhooks/signing-secret',
    {
      schema: {
        tags,
        summary: 'Read the signing secret',
        description:
          'Every delivery carries the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under this secret).',
        response: { 200: Envelope(SigningSecret), ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, await getSigningSecret(deps, accountOf(request).accountId)),
  );

  app.post(
    '/webhooks/signing-secret',
    {
      schema: {
        tags,
        summary: 'Rotate the signing secret',
        description: 'Returns the new secret. For 24 hours the old one keeps signing too: `webhook-signature` then holds both signatures, space-separated.',
        response: { 200: Envelope(SigningSecret), ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, await rotateSigningSecret(deps, accountOf(request).accountId)),
  );

  app.get(
    '/webhooks/settings',
    { schema: { tags, summary: 'Read delivery settings', response: { 200: Envelope(WebhookSettings), ...authErrors } } },
    async (request) => envelope(deps.clock, await getWebhookSettings(deps, accountOf(request).accountId)),
  );

  app.patch(
    '/webhooks/settings',
    {
      schema: { tags, summary: 'Change delivery settings', body: WebhookSettings, response: { 200: Envelope(WebhookSettings), ...authErrors } },
    },
    async (request) => envelope(deps.clock, await updateWebhookSettings(deps, accountOf(request).accountId, request.body)),
  );

  app.get(
    '/webhooks/:webhook_id/deliveries',
    {
      schema: {
        tags,
        summary: 'Delivery log: events routed to a subscription',
        params: WebhookIdParams,
        querystring: DeliveryLogQuery,
        response: { 200: Envelope(Type.Array(WebhookDelivery)), ...withNotFound },
      },
    },
    async (request) =>
      envelope(deps.clock, await listDeliveries(deps, accountOf(request).accountId, request.params.webhook_id, request.query)),
  );

  app.get(
    '/webhooks/:webhook_id/attempts',
    {
      schema: {
        tags,
        summary: 'Delivery log: every POST with status code, latency and error',
        params: WebhookIdParams,
        querystring: AttemptLogQuery,
        response: { 200: Envelope(Type.Array(WebhookAttempt)), ...withNotFound },
      },
    },
    async (request) =>
      envelope(deps.clock, await listAttempts(deps, accountOf(request).accountId, request.params.webhook_id, request.query)),
  );

  app.post(
    '/webhooks/:webhook_id/redeliver',
    {
      schema: {
        tags,
        summary: 'Deliver one event again, or everything that failed since a time',
        description:
          'Redelivered events keep their idempotency key and their place in their chat\'s order, and start the retry schedule afresh. A disabled subscription answers 409 `WEBHOOK_DISABLED`.',
        params: WebhookIdParams,
        body: RedeliverBody,
        response: { 200: Envelope(Redelivery), ...withNotFound, 409: ErrorBody },
      },
    },
    async (request) =>
      envelope(deps.clock, await redeliver(deps, accountOf(request).accountId, request.params.webhook_id, request.body)),
  );
};
