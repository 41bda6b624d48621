import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope } from '../../../contract/envelope.ts';
import { ErrorBody } from '../../../contract/errors.ts';
import { Attachment } from '../../../contract/messages.ts';
import { UploadQuery, uploadLimits } from '../../../contract/uploads.ts';
import { storeUpload } from '../../core/uploads/uploads.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatsSession, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

/**
 * `POST /bff/uploads?name=…`: the bytes of a file the agent attaches, as the body, under the file's own type. In
 * a scope of its own, every type is read as bytes (a JSON or text file too: nothing here parses what it is sent).
 */
export const uploadRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: uploadLimits.maxBytes }, (_request, body, done) => done(null, body));
  app.post(
    '/uploads',
    {
      bodyLimit: uploadLimits.maxBytes,
      schema: {
        tags: ['bff'],
        summary: 'Upload a file to attach to a message',
        description: `The file's bytes as the body (up to ${uploadLimits.maxBytes / 1024 / 1024} MB; more: 413 PAYLOAD_TOO_LARGE), its type as content-type. Answers the \`attachment\` to send, whose \`url\` is a signed link of the gateway's, kept ${uploadLimits.keptDays} days.`,
        querystring: UploadQuery,
        response: { 201: Envelope(Attachment), 413: ErrorBody, ...sessionErrors },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      assertChatsSession(session);
      const content = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const attachment = await storeUpload(deps.uploads, session.accountId, { name: request.query.name, type: request.headers['content-type'], content });
      return reply.code(201).send(ok(deps.clock, attachment));
    },
  );
};
