import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { CreateChatsLinkBody } from '../../../../contract/iframe-links.ts';
import { v3Errors } from '../../../../contract/v3/errors.ts';
import { V3IframeBody, V3IframeUrl } from '../../../../contract/v3/iframe.ts';
import { tokenGrant } from '../../../core/embedding/grants.ts';
import { createChatsLink } from '../../../core/embedding/links.ts';
import type { EmbeddingDeps } from '../../../core/embedding/ports.ts';
import { accountOf } from '../../plugins/auth.ts';
import { withoutBlanks } from '../lenient-body.ts';

const defined = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && v !== null)) as T;

/** A v3 frame request as the gateway's chat-frame link request: the same use-case as /v2/iframe-links/chats. */
export function toChatsLinkBody(body: V3IframeBody): CreateChatsLinkBody {
  const options = body.options;
  const useEvents = options && (options.useDealsEvents !== undefined || options.useMessageEvents !== undefined)
    ? defined({ deals: options.useDealsEvents, messages: options.useMessageEvents })
    : undefined;
  return defined({
    user: defined({ id: String(body.user.id), name: body.user.name?.trim() || undefined }),
    scope: body.scope,
    chats: body.filter?.map((c) => defined({ chat_type: c.chatType, chat_id: c.chatId, username: c.username?.replace(/^@/, ''), phone: c.phone, contact_name: c.name })),
    active_chat: body.activeChat
      ? defined({ channel_id: body.activeChat.channelId, chat_type: body.activeChat.chatType, chat_id: body.activeChat.chatId, username: body.activeChat.username })
      : undefined,
    use_events: useEvents,
    client_type: options?.clientType,
  }) as CreateChatsLinkBody;
}

/** `POST /v3/iframe` → `{url}`: the chat frame for a CRM user. */
export const v3IframeRoutes: FastifyPluginAsyncTypebox<EmbeddingDeps> = async (app, deps) => {
  app.post(
    '/iframe',
    {
      config: { v3Invalid: 'VALIDATION_ERROR' },
      preValidation: async (request) => {
        request.body = withoutBlanks(request.body) as V3IframeBody;
      },
      schema: {
        tags: ['v3 iframe'],
        summary: 'Link to the chat window',
        description:
          'For `user` (a CRM user id; its `name` shown as the author), every chat (`scope: global`) or the chats of one card (`scope: card`, ' +
          'listed in `filter`; a chat unknown yet is created, named by `name` or its chatId), opening `activeChat` first. `options.useDealsEvents` ' +
          'and `options.useMessageEvents` choose what the frame tells the embedding page. The page\'s origin must be allowed (PUT /v2/embedding/origins).',
        body: V3IframeBody,
        response: { 200: V3IframeUrl, ...v3Errors },
      },
    },
    async (request) => {
      const link = await createChatsLink(deps, accountOf(request).accountId, toChatsLinkBody(request.body), tokenGrant(accountOf(request).tokenId));
      return { url: link.url };
    },
  );
};
