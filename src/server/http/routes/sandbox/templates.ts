import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChannelIdParams } from '../../../../contract/channel-api.ts';
import { Envelope } from '../../../../contract/envelope.ts';
import { CreateTemplateBody, ModerationBody, Template, TemplateIdParams } from '../../../../contract/templates.ts';
import { createSandboxTemplate, moderateTemplate, type TemplateDeps } from '../../../core/templates/templates.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { withNotFound } from '../errors.ts';

/** The business-API platform of the sandbox: templates are submitted and moderated on command. */
export const sandboxTemplateRoutes: FastifyPluginAsyncTypebox<TemplateDeps> = async (app, deps) => {
  const tags = ['sandbox'];

  app.post(
    '/sandbox/channels/:channel_id/templates',
    {
      schema: {
        tags,
        summary: 'Submit a template on a wapi channel (PENDING)',
        description:
          'Components: one `body`, at most one `header`, `footer` and `buttons`; variables `{{1}}`…`{{n}}` without gaps in header and body. ' +
          'A channel of another transport, or a name and language the channel already has: 400.',
        params: ChannelIdParams,
        body: CreateTemplateBody,
        response: { 201: Envelope(Template), ...withNotFound },
      },
    },
    async (request, reply) =>
      reply.code(201).send(envelope(deps.clock, await createSandboxTemplate(deps, accountOf(request).accountId, request.params.channel_id, request.body))),
  );

  app.post(
    '/sandbox/templates/:template_id/moderation',
    {
      schema: {
        tags,
        summary: 'The platform moderates a template → waba_template.status_update',
        description: 'Any status may follow any other, as the platform decides; the same status again changes nothing and sends no event.',
        params: TemplateIdParams,
        body: ModerationBody,
        response: { 200: Envelope(Template), ...withNotFound },
      },
    },
    async (request) => envelope(deps.clock, await moderateTemplate(deps, accountOf(request).accountId, request.params.template_id, request.body.status)),
  );
};
