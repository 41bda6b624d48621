import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { v3Errors } from '../../../../contract/v3/errors.ts';
import { V3WebhooksPatch, V3WebhooksState } from '../../../../contract/v3/webhooks.ts';
import { getV3Address, setV3Address, V3AddressRefused, V3_URI_MAX } from '../../../core/webhooks/v3-address.ts';
import { v3CallerOf } from './caller.ts';
import { V3Error } from './errors.ts';
import type { V3Deps } from './index.ts';

/** `PATCH`/`GET /v3/webhooks`: the account's one v3 webhook address and its four switches. */
export const v3WebhookRoutes: FastifyPluginAsyncTypebox<V3Deps> = async (app, deps) => {
  const tags = ['v3 webhooks'];
  const addressDeps = {
    store: deps.store,
    clock: deps.clock,
    urlPolicy: deps.urlPolicy,
    resolveHost: deps.resolveHost,
    sender: deps.webhookSender,
    sealer: deps.webhookSealer,
  };

  app.patch(
    '/webhooks',
    {
      config: { access: 'sidecar' },
      schema: {
        tags,
        summary: 'Set the webhook address and its switches',
        description:
          `The address (at most ${V3_URI_MAX} characters, http or https, public unless the gateway allows loopback) is sent ` +
          '`{"test": true}` at once and must answer 200; then it receives the bodies its switches ask for, keyed by type. ' +
          'Answers the text `OK`. Refusals: 400 `uriNotValid` (a malformed or forbidden address), 400 `testPostNotPassed` ' +
          '(the test POST was not answered 200; `data.statusCode` says what came). `crmKey`, when given, is sent back as ' +
          '`Authorization: Bearer <crmKey>` on every POST.',
        body: V3WebhooksPatch,
        response: { 200: Type.String({ description: 'The text `OK`.' }), ...v3Errors },
      },
    },
    async (request, reply) => {
      try {
        await setV3Address(addressDeps, v3CallerOf(request).accountId, request.body);
      } catch (err) {
        if (err instanceof V3AddressRefused) throw new V3Error(400, err.code, err.message, err.data);
        throw err;
      }
      return reply.code(200).type('text/plain; charset=utf-8').send('OK');
    },
  );

  app.get(
    '/webhooks',
    {
      config: { access: 'sidecar' },
      schema: {
        tags,
        summary: 'The webhook address and its switches',
        description: 'Switches are JSON booleans; the template switch is given under both `templateStatus` and `wabaTemplatesStatus`. `webhooksUri` is null until one is set.',
        response: { 200: V3WebhooksState, ...v3Errors },
      },
    },
    async (request) => getV3Address(addressDeps, v3CallerOf(request).accountId),
  );
};
