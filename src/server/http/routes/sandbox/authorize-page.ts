import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AuthorizeQuery } from '../../../../contract/sandbox.ts';
import { ChannelIdParams } from '../../../../contract/channel-api.ts';
import { ErrorBody } from '../../../../contract/errors.ts';
import type { ChannelDeps } from '../../../core/channels/ports.ts';
import { sandboxAuthorize } from '../../../core/sandbox/sandbox-actions.ts';
import { htmlPage as page } from '../../html-page.ts';

/**
 * The authorization page of the sandbox: the `url` that creating a wapi or instagram channel (POST /v2/channels) or a VK
 * channel (the channels frame) returns. Opening it authorizes the number or the community, as the platform's
 * consent screen would; the unguessable URL is the proof.
 */
export const sandboxAuthorizePage: FastifyPluginAsyncTypebox<ChannelDeps & { publicUrl: string }> = async (app, deps) => {
  app.get(
    '/sandbox/authorize/:channel_id',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Authorization page (the `url` of a wapi, instagram or vk channel)',
        params: ChannelIdParams,
        querystring: AuthorizeQuery,
        produces: ['text/html'],
        response: { 200: Type.String(), 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const url = `${deps.publicUrl}/sandbox/authorize/${request.params.channel_id}?state=${encodeURIComponent(request.query.state)}`;
      const channel = await sandboxAuthorize(deps, request.params.channel_id, url);
      const [title, text] =
        channel.transport === 'vk'
          ? ['Community authorized', `The VK community ${channel.name} is connected. You can close this window.`]
          : channel.transport === 'instAPI'
            ? ['Instagram account connected', `The Instagram account @${channel.username} is connected. You can close this window.`]
            : ['Number authorized', `The business-API number +${channel.phone} is connected. You can close this window.`];
      return reply.type('text/html; charset=utf-8').send(page(title, text));
    },
  );
};
