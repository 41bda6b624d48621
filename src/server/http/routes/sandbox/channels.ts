import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Channel, ChannelIdParams } from '../../../../contract/channel-api.ts';
import { Envelope } from '../../../../contract/envelope.ts';
import { ErrorBody } from '../../../../contract/errors.ts';
import { PaymentBody, PhoneParams, SandboxPhone, ScanBody, TierBody, TwoFactorPasswordBody } from '../../../../contract/sandbox.ts';
import { messengerReported, paymentChanged, tierChanged, type MessengerReport } from '../../../core/channels/messenger-events.ts';
import type { ChannelDeps } from '../../../core/channels/ports.ts';
import { revokeSandboxBotToken, sandboxScan, setSandboxPassword } from '../../../core/sandbox/sandbox-actions.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { authErrors, withNotFound } from '../errors.ts';

const responses = { 200: Envelope(Channel), ...withNotFound, 409: ErrorBody } as const;

/** The other side of the sandbox network, for the account's own channels: phones, platform, billing. */
export const sandboxChannelRoutes: FastifyPluginAsyncTypebox<ChannelDeps> = async (app, deps) => {
  const tags = ['sandbox'];
  const params = ChannelIdParams;

  app.post(
    '/sandbox/channels/:channel_id/scan',
    {
      schema: {
        tags,
        summary: 'A phone scans the QR (or confirms the pairing code)',
        description:
          'The channel’s own phone (or the first phone) → `init`/`sync`, then `active`; a tgapi account with a two-factor password → ' +
          '`init`/`wait_for_password`; another phone than the channel’s → `disabled`/`foreignphone`. No live QR: 409.',
        params,
        body: ScanBody,
        response: responses,
      },
    },
    async (request) => envelope(deps.clock, await sandboxScan(deps, accountOf(request).accountId, request.params.channel_id, request.body?.phone)),
  );

  const reports: [path: string, report: MessengerReport, summary: string][] = [
    ['logout', 'logged_out', 'The session is ended on the phone → disabled / unauthorized'],
    ['block', 'blocked', 'The platform blocks the business-API number → disabled / blocked'],
    ['reject', 'rejected', 'The platform rejects the business-API number → disabled / rejected'],
    ['open-elsewhere', 'opened_elsewhere', 'The account is authorized in another account of the service → disabled / openelsewhere'],
  ];
  for (const [path, report, summary] of reports) {
    app.post(`/sandbox/channels/:channel_id/${path}`, { schema: { tags, summary, params, response: responses } }, async (request) =>
      envelope(deps.clock, await messengerReported(deps, accountOf(request).accountId, request.params.channel_id, report)),
    );
  }

  app.post(
    '/sandbox/channels/:channel_id/revoke-token',
    { schema: { tags, summary: 'The platform revokes the bot token → disabled / unauthorized; the token is refused from now on', params, response: responses } },
    async (request) => envelope(deps.clock, await revokeSandboxBotToken(deps, accountOf(request).accountId, request.params.channel_id)),
  );

  app.post(
    '/sandbox/channels/:channel_id/tier',
    { schema: { tags, summary: 'The business-API tier changes → channel.waba_tier_update', params, body: TierBody, response: responses } },
    async (request) => envelope(deps.clock, await tierChanged(deps, accountOf(request).accountId, request.params.channel_id, request.body.tier)),
  );

  app.post(
    '/sandbox/channels/:channel_id/payment',
    { schema: { tags, summary: 'Billing: stop or resume paying for the channel', params, body: PaymentBody, response: responses } },
    async (request) => envelope(deps.clock, await paymentChanged(deps, accountOf(request).accountId, request.params.channel_id, request.body.paid)),
  );

  app.put(
    '/sandbox/phones/:phone/two-factor',
    {
      schema: {
        tags,
        summary: 'Set or remove the two-factor password of the account behind a phone',
        description: 'A tgapi channel scanned by this phone then waits for the password (`init`/`wait_for_password`).',
        params: PhoneParams,
        body: TwoFactorPasswordBody,
        response: { 200: Envelope(SandboxPhone), ...authErrors },
      },
    },
    async (request) => envelope(deps.clock, await setSandboxPassword(deps, accountOf(request).accountId, request.params.phone, request.body.password)),
  );
};
