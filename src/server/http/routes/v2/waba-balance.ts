import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AccountIdParams } from '../../../../contract/accounts.ts';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import type { AuthRepository } from '../../../core/auth/ports.ts';
import { topUpWabaBalance, wabaTransactions } from '../../../core/auth/waba-balance.ts';
import type { Clock, Store } from '../../../core/ports.ts';
import { envelope } from '../../envelope.ts';
import { accountOf, partnerOf } from '../../plugins/auth.ts';
import { withNotFound } from '../errors.ts';

const Transaction = Type.Object({
  transaction_id: Type.String({ format: 'uuid' }),
  kind: Type.Enum(['top_up', 'conversation']),
  amount: Type.Integer(),
  chat_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

/** The balance that pays for WhatsApp Business API conversations: partners top it up, accounts read what it paid. */
export const wabaBalanceRoutes: FastifyPluginAsyncTypebox<{ store: Store; clock: Clock; auth: AuthRepository }> = async (app, deps) => {
  app.post(
    '/accounts/:account_id/waba-balance',
    {
      config: { access: 'partner' },
      schema: {
        tags: ['accounts'],
        summary: 'Top up the business API balance (in the account\'s currency)',
        params: AccountIdParams,
        body: Type.Object({ value: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }) }, { additionalProperties: false }),
        response: { 200: NullEnvelope, ...withNotFound },
      },
    },
    async (request) => {
      await topUpWabaBalance(deps, partnerOf(request), request.params.account_id, request.body.value);
      return envelope(deps.clock, null);
    },
  );

  app.get(
    '/channels/waba/:channel_id/transactions/:date',
    {
      schema: {
        tags: ['channels'],
        summary: 'What a business API channel paid on one day (UTC)',
        params: Type.Object({ channel_id: Type.String({ format: 'uuid' }), date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }) }),
        response: { 200: Envelope(Type.Object({ transactions: Type.Array(Transaction), count: Type.Integer() })), ...withNotFound },
      },
    },
    async (request) => envelope(deps.clock, await wabaTransactions(deps, accountOf(request).accountId, request.params.channel_id, request.params.date)),
  );
};
