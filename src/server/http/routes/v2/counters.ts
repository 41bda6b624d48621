import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '../../../../contract/envelope.ts';
import { ClearedUnanswered, UnansweredCounter } from '../../../../contract/settings.ts';
import { clearUnanswered, unansweredCounter } from '../../../core/rights/counters.ts';
import type { SettingsDeps } from '../../../core/rights/settings.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { authErrors } from '../errors.ts';

/** Unanswered chats: a user's counter for the CRM's badge, and clearing them all. */
export const counterRoutes: FastifyPluginAsyncTypebox<SettingsDeps> = async (app, deps) => {
  const tags = ['counters'];

  app.get(
    '/counters/unanswered/:user_id',
    {
      schema: {
        tags,
        summary: "A user's unanswered chats",
        description:
          'How many chats the user can see (by their roles; all while no role is set) wait for an answer. `type` is `red` when one of them ' +
          'is a customer given to the user (with no roles set: when any waits), `grey` otherwise.',
        params: Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 200: Envelope(UnansweredCounter), ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, await unansweredCounter(deps, accountOf(request).accountId, request.params.user_id)),
  );

  app.delete(
    '/chats/unanswered',
    {
      schema: {
        tags,
        summary: 'Mark every chat answered',
        description: "Sets every chat's unanswered counter of the account to zero.",
        response: { 200: Envelope(ClearedUnanswered), ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, await clearUnanswered(deps, accountOf(request).accountId)),
  );
};
