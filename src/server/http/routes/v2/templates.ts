import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, NullEnvelope } from '../../../../contract/envelope.ts';
import { Template, TemplatesQuery, WabaTemplateAnswer, WabaTemplateBody, WabaTemplateChange } from '../../../../contract/templates.ts';
import { listTemplates, type TemplateDeps } from '../../../core/templates/templates.ts';
import { createWabaTemplate, deleteWabaTemplate, editWabaTemplate, getWabaTemplate, listWabaTemplates } from '../../../core/templates/waba.ts';
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

/** Business-API templates managed as the original service does: create, read, edit, delete at /v2/templates/waba. */
export const wabaTemplateRoutes: FastifyPluginAsyncTypebox<TemplateDeps> = async (app, deps) => {
  const tags = ['templates'];
  const One = Envelope(WabaTemplateAnswer);
  const params = Type.Object({ id: Type.String({ format: 'uuid' }) });

  app.post(
    '/templates/waba',
    {
      schema: {
        tags,
        summary: 'Submit a business-API template',
        description:
          '`{template: {title, waba, channels, category, language, components}, is_draft}`: the template is submitted on each wapi channel of `channels` ' +
          'and waits for moderation (PENDING; `waba_template.status_update` tells the verdict): the sandbox moderates, and a live channel\'s template is ' +
          'submitted to Meta once per WhatsApp Business Account, each part\'s `example` handed on; Meta\'s refusals are answered as errors. Only TEXT headers are kept.',
        body: WabaTemplateBody,
        response: { 201: One, ...withNotFound },
      },
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await createWabaTemplate(deps, accountOf(request).accountId, request.body))),
  );
  app.get('/templates/waba', { schema: { tags, summary: 'List business-API templates', response: { 200: Envelope(Type.Array(WabaTemplateAnswer)), ...withNotFound } } }, async (request) =>
    envelope(deps.clock, await listWabaTemplates(deps, accountOf(request).accountId)),
  );
  app.get('/templates/waba/:id', { schema: { tags, summary: 'One business-API template', params, response: { 200: One, ...withNotFound } } }, async (request) =>
    envelope(deps.clock, await getWabaTemplate(deps, accountOf(request).accountId, request.params.id)),
  );
  app.patch(
    '/templates/waba/:id',
    {
      schema: { tags, summary: 'Edit a business-API template', description: 'Its category or components; it goes back to moderation (PENDING) on every channel (live: submitted to Meta again).', params, body: WabaTemplateChange, response: { 200: One, ...withNotFound } },
    },
    async (request) => envelope(deps.clock, await editWabaTemplate(deps, accountOf(request).accountId, request.params.id, request.body)),
  );
  app.delete('/templates/waba/:id', { schema: { tags, summary: 'Delete a business-API template on every channel', params, response: { 200: NullEnvelope, ...withNotFound } } }, async (request) => {
    await deleteWabaTemplate(deps, accountOf(request).accountId, request.params.id);
    return envelope(deps.clock, null);
  });
};
