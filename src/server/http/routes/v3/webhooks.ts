import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { V3Deps } from './index.ts';

/** `PATCH`/`GET /v3/webhooks`: the account's one v3 webhook address and its four switches. */
export const v3WebhookRoutes: FastifyPluginAsyncTypebox<V3Deps> = async (_app, _deps) => {};
