import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Envelope } from '../../../../contract/envelope.ts';
import { CreateChannelsLinkBody, CreateChatsLinkBody, IframeLink } from '../../../../contract/iframe-links.ts';
import { createChannelsLink, createChatsLink } from '../../../core/embedding/links.ts';
import { tokenGrant } from '../../../core/embedding/grants.ts';
import type { EmbeddingDeps } from '../../../core/embedding/ports.ts';
import { envelope } from '../../envelope.ts';
import { accountOf } from '../../plugins/auth.ts';
import { withNotFound } from '../errors.ts';
import { eachItem, idsAsText, withoutBlanks } from '../lenient-body.ts';

/** The client token a link is created with: revoking it ends the link and the sessions it opens. */
const grantOf = (request: FastifyRequest) => tokenGrant(accountOf(request).tokenId);
/** The frame may do what the token that made its link may: an OAuth token's scopes, every scope for a client token. */
const scopesOf = (request: FastifyRequest) => accountOf(request).scopes ?? null;

/** Short-lived signed URLs for the iframes a CRM embeds. */
export const iframeLinkRoutes: FastifyPluginAsyncTypebox<EmbeddingDeps> = async (app, deps) => {
  const tags = ['embedding'];
  const response = { 201: Envelope(IframeLink), ...withNotFound };
  // Fields sent empty (null, "") are left out, ids sent as numbers read as text, as the original service takes them.
  const lenient = async (request: { body: unknown }) => {
    let body = idsAsText(withoutBlanks(request.body), ['user_id']);
    body = eachItem(body, 'chats', (chat) => idsAsText(withoutBlanks(chat), ['chat_id']));
    for (const key of ['active_chat', 'options', 'use_events', 'user']) {
      const part = (body as Record<string, unknown> | null)?.[key];
      if (part !== undefined) body = { ...(body as object), [key]: idsAsText(withoutBlanks(part), ['chat_id', 'id']) };
    }
    request.body = body;
  };

  app.post(
    '/iframe-links/chats',
    {
      preValidation: lenient,
      schema: {
        tags,
        summary: 'Link to the chat frame',
        description:
          'Scoped to the account, the CRM user (`user_id`, named by `author_name`; the nested `user` is accepted too), and either every chat (`global`) ' +
          'or the listed chats of one CRM card (`card`). `use_events` chooses the bridge messages the frame posts. ' +
          'Open `link` (the same as `url`) within an hour in an iframe on one of the allowed origins (PUT /v2/embedding/origins); it is exchanged once for a session.',
        body: CreateChatsLinkBody,
        response,
      },
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await createChatsLink(deps, accountOf(request).accountId, request.body, grantOf(request), scopesOf(request)))),
  );

  app.post(
    '/iframe-links/channels',
    {
      preValidation: lenient,
      schema: {
        tags,
        summary: 'Link to the channel-connect frame',
        description:
          'Connects a new channel (optionally of a preselected transport, `options.transport`; VK connects only here) or reconnects one channel (`options.channel_id`). ' +
          'The same two fields are accepted at the top level.',
        body: CreateChannelsLinkBody,
        response,
      },
    },
    async (request, reply) => reply.code(201).send(envelope(deps.clock, await createChannelsLink(deps, accountOf(request).accountId, request.body, grantOf(request), scopesOf(request)))),
  );
};
