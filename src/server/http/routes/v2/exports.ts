import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope } from '../../../../contract/envelope.ts';
import { CreateExportBody, ExportCreated, ExportIdParams, ExportTask, MAX_EXPORT_DAYS } from '../../../../contract/exports.ts';
import { getExport, requestExport } from '../../../core/exports/exports.ts';
import type { ExportDeps } from '../../../core/exports/ports.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { withNotFound } from '../errors.ts';

/** Message exports of the calling account: a task that writes a CSV file and announces its signed link. */
export const exportRoutes: FastifyPluginAsyncTypebox<ExportDeps> = async (app, deps) => {
  const tags = ['exports'];

  app.post(
    '/messages/messages_dump',
    {
      schema: {
        tags,
        summary: 'Export messages of a period as CSV',
        description:
          `Messages created in [start_at, end_at) (a period longer than ${MAX_EXPORT_DAYS} days is exported whole, with \`warnings\` ` +
          'saying so), of every channel or of `channel_id` (a deleted ' +
          'channel’s kept history included). Subscribe to `messages_dump.status_update` first: `{export_id, status: "done", url}` ' +
          'arrives when the file is ready. Another account’s channel: 404 CHANNEL_NOT_FOUND.',
        body: CreateExportBody,
        response: { 201: Envelope(ExportCreated), ...withNotFound },
      },
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await requestExport(deps, accountOf(request).accountId, request.body))),
  );

  app.get(
    '/messages/messages_dump/:export_id',
    {
      schema: {
        tags,
        summary: 'Status and link of an export',
        description: '`url` is null until the file is ready (done or webhook_failed); it works for 24 hours from then, after which it answers 410.',
        params: ExportIdParams,
        response: { 200: Envelope(ExportTask), ...withNotFound },
      },
    },
    async (request) => envelope(deps.clock, await getExport(deps, accountOf(request).accountId, request.params.export_id)),
  );
};
