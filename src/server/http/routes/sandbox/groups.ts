import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChannelIdParams } from '../../../../contract/channel-api.ts';
import { Envelope } from '../../../../contract/envelope.ts';
import { CreateGroupBody, Group, GroupMembersBody, GroupParams, UpdateGroupBody } from '../../../../contract/sandbox.ts';
import type { MessageDeps } from '../../../core/messages/ports.ts';
import { sandboxCreateGroup, sandboxGroupMembers, sandboxUpdateGroup } from '../../../core/sandbox/sandbox-groups.ts';
import { accountOf } from '../../plugins/auth.ts';
import { envelope } from '../../envelope.ts';
import { withNotFound } from '../errors.ts';

/** Group chats of the sandbox network (whatsgroup, telegroup, maxgroup). */
export const sandboxGroupRoutes: FastifyPluginAsyncTypebox<MessageDeps> = async (app, deps) => {
  const tags = ['sandbox'];

  app.post(
    '/sandbox/channels/:channel_id/groups',
    {
      schema: {
        tags,
        summary: 'A group chat is created with the channel in it',
        description: 'Sends `group_chat.update` and, with members, `group_chat.memberships_update`. `group_id` is the chat_id to send to.',
        params: ChannelIdParams,
        body: CreateGroupBody,
        response: { 201: Envelope(Group), ...withNotFound },
      },
    },
    async (request, reply) =>
      reply.code(201).send(envelope(deps.clock, await sandboxCreateGroup(deps, accountOf(request).accountId, request.params.channel_id, request.body))),
  );

  app.post(
    '/sandbox/channels/:channel_id/groups/:group_id/members',
    {
      schema: {
        tags,
        summary: 'Members join, leave, are invited or renamed',
        description: 'A member without `group_member_id` is new. Sends `group_chat.memberships_update` with the members that changed.',
        params: GroupParams,
        body: GroupMembersBody,
        response: { 200: Envelope(Group), ...withNotFound },
      },
    },
    async (request) =>
      envelope(deps.clock, await sandboxGroupMembers(deps, accountOf(request).accountId, request.params.channel_id, request.params.group_id, request.body)),
  );

  app.patch(
    '/sandbox/channels/:channel_id/groups/:group_id',
    {
      schema: { tags, summary: 'The group is renamed or gets a new picture → group_chat.update', params: GroupParams, body: UpdateGroupBody, response: { 200: Envelope(Group), ...withNotFound } },
    },
    async (request) =>
      envelope(deps.clock, await sandboxUpdateGroup(deps, accountOf(request).accountId, request.params.channel_id, request.params.group_id, request.body)),
  );
};
