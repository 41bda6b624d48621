import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '../../../contract/errors.ts';
import { UploadIdParams, UploadLinkQuery } from '../../../contract/uploads.ts';
import { AppError } from '../../core/errors.ts';
import { openUpload, type UploadDeps } from '../../core/uploads/uploads.ts';
import { asForeignFile } from '../file-reply.ts';

/** Files agents attached in the chat frame, behind their signed links: the link is the credential (a messenger fetches it). */
export const fileRoutes: FastifyPluginAsyncTypebox<UploadDeps> = async (app, deps) => {
  app.get(
    '/files/:upload_id',
    {
      schema: {
        tags: ['bff'],
        summary: 'A file an agent attached (the signed `url` of an upload)',
        description: 'Altered link: 403 FORBIDDEN; a file no longer kept: 404 NOT_FOUND.',
        security: [],
        params: UploadIdParams,
        querystring: UploadLinkQuery,
        response: { 200: Type.Unknown({ description: 'The file.' }), 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const found = await openUpload(deps, request.params.upload_id, request.query.signature);
      if (found === 'forbidden') throw new AppError('FORBIDDEN', 'The link is not valid');
      if (!found) throw new AppError('NOT_FOUND', 'The file is no longer available');
      return asForeignFile(reply, found.upload.mimetype, found.upload.name)
        .header('content-length', found.upload.size)
        .header('cache-control', 'private, max-age=86400')
        .send(found.content);
    },
  );
};
