import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '../../../contract/errors.ts';
import { DownloadParams, DownloadQuery } from '../../../contract/exports.ts';
import { openDownload } from '../../core/exports/download.ts';
import type { ExportDeps } from '../../core/exports/ports.ts';

/** Export files behind their signed links, outside /v2: the link itself is the credential. */
export const downloadRoutes: FastifyPluginAsyncTypebox<ExportDeps> = async (app, deps) => {
  app.get(
    '/downloads/exports/:file',
    {
      schema: {
        tags: ['exports'],
        summary: 'Download an export file (the signed `url`)',
        description: 'CSV, UTF-8 with a byte-order mark. Altered or foreign link: 403 FORBIDDEN; older than 24 hours: 410 DOWNLOAD_EXPIRED.',
        security: [],
        params: DownloadParams,
        querystring: DownloadQuery,
        produces: ['text/csv'],
        response: { 200: Type.Unknown({ description: 'The CSV file.' }), 403: ErrorBody, 404: ErrorBody, 410: ErrorBody },
      },
    },
    async (request, reply) => {
      const file = await openDownload(deps, request.params.file, request.query.expires, request.query.signature);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-length', file.size)
        .header('content-disposition', `attachment; filename="messages-${file.exportId}.csv"`)
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );
};
