import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import {
  CreateWebhooksBody,
  DeleteWebhooksBody,
  UpdateWebhooksBody,
  WebhookSubscription,
} from '../../../../contract/webhooks.ts';
import {
  createSubscriptions,
  deleteSubscriptions,
  listSubscriptions,
  updateSubscriptions,
  type WebhookDeps,
} from '../../../core/webhooks/subscriptions.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { authErrors, withNotFound } from '../errors.ts';

/** Webhook subscriptions of the calling account. Each call is all-or-nothing. */
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookDeps> = async (app, deps) => {
  const tags = ['webhooks'];
  const List = Envelope(Type.Array(WebhookSubscription));

  app.get('/webhooks', { schema: { tags, summary: 'List subscriptions', response: { 200: List, ...authErrors } } }, async (request) =>
    envelope(deps.clock, await listSubscriptions(deps, accountOf(request).accountId)),
  );

  app.post(
    '/webhooks',
    { schema: { tags, summary: 'Subscribe to events', body: CreateWebhooksBody, response: { 201: List, ...authErrors } } },
    async (request, reply) =>
      reply.code(201).send(envelope(deps.clock, await createSubscriptions(deps, accountOf(request).accountId, request.body.data))),
  );

  app.patch(
    '/webhooks',
    { schema: { tags, summary: 'Change subscriptions', body: UpdateWebhooksBody, response: { 200: List, ...withNotFound } } },
    async (request) => envelope(deps.clock, await updateSubscriptions(deps, accountOf(request).accountId, request.body.data)),
  );

  app.delete(
    '/webhooks',
    { schema: { tags, summary: 'Remove subscriptions', body: DeleteWebhooksBody, response: { 200: NullEnvelope, ...withNotFound } } },
    async (request) => {
      await deleteSubscriptions(deps, accountOf(request).accountId, request.body.data.map((d) => d.id));
      return envelope(deps.clock, null);
    },
  );
};
