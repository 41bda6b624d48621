import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '../../../../contract/envelope.ts';
import { Template, TemplatesQuery } from '../../../../contract/templates.ts';
import { listTemplates, type TemplateDeps } from '../../../core/templates/templates.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { withNotFound } from '../errors.ts';

/** Business-API templates of the calling account's wapi channels. */
export const templateRoutes: FastifyPluginAsyncTypebox<TemplateDeps> = async (app, deps) => {
  app.get(
    '/templates',
    {
      config: { access: 'sidecar' },
      schema: {
        tags: ['templates'],
        summary: 'List business-API templates',
        description:
          'Every template of the account’s wapi channels with its moderation status and components; `channel_id` keeps one ' +
          'channel’s (another account’s channel: 404 CHANNEL_NOT_FOUND). Only APPROVED templates can be sent; a send names ' +
          'the template by `id` and fills `{{1}}`, `{{2}}`… from `template.values`. Status changes arrive as `waba_template.status_update`. ' +
          'A template the platform deleted is no longer listed, a send naming it is refused with 404 TEMPLATE_NOT_FOUND, and its ' +
          'deletion arrives as `waba_template.status_update` with DISABLED.',
        querystring: TemplatesQuery,
        response: { 200: Envelope(Type.Array(Template)), ...withNotFound },
      },
    },
    async (request) => envelope(deps.clock, await listTemplates(deps, accountOf(request).accountId, request.query.channel_id)),
  );
};
