import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ChatRefParams } from '../../../contract/bff-chats.ts';
import { ChatCrmCard, CrmCreateAsked, CrmCreateRequest } from '../../../contract/crm-entities.ts';
import { Envelope } from '../../../contract/envelope.ts';
import { contactOfChat } from '../../core/contacts/cards.ts';
import { askCrmToCreate } from '../../core/deals/crm-asks.ts';
import type { EmbedSessionRecord } from '../../core/embedding/ports.ts';
import { AppError } from '../../core/errors.ts';
import { withoutPhones } from '../../core/rights/hidden-phones.ts';
import type { BffDeps } from '../deps.ts';
import { assertChatInScope, sessionOf } from '../guards.ts';
import { ok, sessionErrors } from '../reply.ts';
import { assertChannelAllowed, frameRights } from '../rights.ts';

/** The CRM beside a chat: its contact and open deals, and asking the CRM to create a contact or a deal. */
export const crmRoutes: FastifyPluginAsyncTypebox<BffDeps> = async (app, deps) => {
  const tags = ['bff'];

  /** The chat, when the session may see it (card, rights), with the rights that apply. */
  const readableChat = async (session: EmbedSessionRecord, chatRef: string) => {
    const chat = await deps.store.chats.get(session.accountId, chatRef);
    if (!chat) throw new AppError('CHAT_NOT_FOUND', 'Chat not found');
    assertChatInScope(session, { chat_type: chat.chatType, chat_id: chat.chatId, username: chat.username, phone: chat.phone });
    const rights = await frameRights(deps.store, session);
    assertChannelAllowed(rights, chat.channelId);
    return { chat, rights };
  };

  app.get(
    '/chats/:chat_ref/crm',
    {
      schema: {
        tags,
        summary: "A chat's contact in the CRM and its open deals",
        description: 'The contact owning one of the chat\'s handles (POST /v2/contacts), null when none does, and its deals not closed.',
        params: ChatRefParams,
        response: { 200: Envelope(ChatCrmCard), ...sessionErrors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const { chat, rights } = await readableChat(session, request.params.chat_ref);
      const contact = await contactOfChat(deps.store, session.accountId, chat);
      const deals = contact ? await deps.store.deals.openOfContact(session.accountId, contact.id) : [];
      const card = { contact, deals };
      return ok(deps.clock, rights.hidePhones ? (withoutPhones(card, chat.id, chat.chatType) as typeof card) : card);
    },
  );

  for (const kind of ['contact', 'deal'] as const) {
    app.post(
      `/crm/${kind}s`,
      {
        schema: {
          tags,
          summary: `Ask the CRM to create a ${kind} for a chat`,
          description: `Sends the webhook event \`crm_entities.${kind}_add\` naming the chat and the session's user; the CRM creates the ${kind} and sends it back.`,
          body: CrmCreateRequest,
          response: { 201: Envelope(CrmCreateAsked), ...sessionErrors },
        },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        const { chat } = await readableChat(session, request.body.chat_ref);
        return reply.code(201).send(ok(deps.clock, await askCrmToCreate(deps, session, chat, kind, request.body.name)));
      },
    );
  }
};
