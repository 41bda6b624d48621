import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { QuickReply, QuickReplyInput, QuickReplyList, QuickReplyParams } from '../../../contract/bff-quick-replies.ts';
import { Envelope } from '../../../contract/envelope.ts';
import { createQuickReply, deleteQuickReply, listQuickReplies, updateQuickReply } from '../../core/quick-replies/quick-replies.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatsSession, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';

/**
 * The account's quick replies in the chat frame: every agent reads them (to insert with `/` in the composer); a
 * manager (or anyone while the account sets no roles) adds, changes and deletes them. Scoped to the session's account.
 */
export const quickReplyRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];
  const use = { quickReplies: deps.store.quickReplies, rights: deps.store.rights, clock: deps.clock };
  const who = (request: Parameters<typeof sessionOf>[0]) => {
    const session = sessionOf(request);
    assertChatsSession(session);
    return { accountId: session.accountId, userId: session.user?.id ?? null };
  };

  app.get(
    '/quick-replies',
    { schema: { tags, summary: 'The account’s quick replies, and whether this agent may change them', response: { 200: Envelope(QuickReplyList), ...sessionErrors } } },
    async (request) => {
      const { accountId, userId } = who(request);
      return ok(deps.clock, await listQuickReplies(use, accountId, userId));
    },
  );

  app.post(
    '/quick-replies',
    {
      schema: {
        tags,
        summary: 'Add a quick reply (a manager)',
        description: 'At most 200 per account (403 TOO_MANY_ENTITIES); a shortcut already used, whatever its case, is a 400 on `body.shortcut`.',
        body: QuickReplyInput,
        response: { 201: Envelope(QuickReply), ...sessionErrors },
      },
    },
    async (request, reply) => {
      const { accountId, userId } = who(request);
      return reply.code(201).send(ok(deps.clock, await createQuickReply(use, accountId, userId, request.body)));
    },
  );

  app.put(
    '/quick-replies/:id',
    { schema: { tags, summary: 'Change a quick reply (a manager)', params: QuickReplyParams, body: QuickReplyInput, response: { 200: Envelope(QuickReply), ...sessionErrors } } },
    async (request) => {
      const { accountId, userId } = who(request);
      return ok(deps.clock, await updateQuickReply(use, accountId, userId, request.params.id, request.body));
    },
  );

  app.delete(
    '/quick-replies/:id',
    { schema: { tags, summary: 'Delete a quick reply (a manager)', params: QuickReplyParams, response: { 204: Type.Null({ description: 'Deleted.' }), ...sessionErrors } } },
    async (request, reply) => {
      const { accountId, userId } = who(request);
      await deleteQuickReply(use, accountId, userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
