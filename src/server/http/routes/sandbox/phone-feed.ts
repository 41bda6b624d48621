import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '../../../../contract/errors.ts';
import { SandboxChatParams } from '../../../../contract/sandbox.ts';
import { channelNotFound } from '../../../core/channels/channel-steps.ts';
import type { MessageDeps } from '../../../core/messages/ports.ts';
import { chatIdAsKept } from '../../../core/messages/recipient.ts';
import type { PhoneNews } from '../../../core/sandbox/phone-feed.ts';
import { accountOf } from '../../plugins/auth.ts';
import { withNotFound } from '../errors.ts';

/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 25_000;

/** The sandbox phone's push and its customer typing (see core/sandbox/phone-feed.ts). */
export const sandboxPhoneFeedRoutes: FastifyPluginAsyncTypebox<MessageDeps> = async (app, deps) => {
  const tags = ['sandbox'];
  // Open streams end when the gateway stops: the HTTP server would otherwise wait for the pages to go.
  const open = new Set<{ end(): void }>();
  app.addHook('preClose', async () => {
    for (const out of open) out.end();
  });

  app.post(
    '/sandbox/channels/:channel_id/chats/:chat_type/:chat_id/typing',
    {
      schema: {
        tags,
        summary: 'The customer is typing',
        description: 'The chat frames that show the chat say so for a few seconds (never stored, never a webhook). 204 also where the chat is not known yet.',
        params: SandboxChatParams,
        response: { 204: Type.Null(), ...withNotFound },
      },
    },
    async (request, reply) => {
      const { channel_id, chat_type, chat_id } = request.params;
      const channel = await deps.store.channels.get(accountOf(request).accountId, channel_id);
      if (!channel) throw channelNotFound(channel_id);
      if (deps.rules[channel.transport].capabilities.typing) deps.typingHeard?.({ channelId: channel.id, chatType: chat_type, chatId: chatIdAsKept(chat_type, chat_id) });
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/sandbox/feed',
    {
      schema: {
        tags,
        summary: 'What the sandbox phone is told, as it happens (Server-Sent Events)',
        description:
          '`text/event-stream`: `change` when an event of the account was recorded (read the chat again), `typing` (`{channel_id, chat_type, chat_id}`) ' +
          'when an agent types to a customer. The phone page reads it with its token in the Authorization header.',
        response: { 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const feed = deps.phoneFeed;
      if (!feed) return reply.code(404).send({ error: 'NOT_FOUND', description: 'The sandbox feed is served in sandbox mode only' } as never);
      const { accountId } = accountOf(request);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', connection: 'keep-alive' });
      out.write(': ready\n\n');
      open.add(out);
      const stop = feed.listen(accountId, (news: PhoneNews) => {
        const { kind, ...data } = news;
        out.write(`event: ${kind}\ndata: ${JSON.stringify(data)}\n\n`);
      });
      const keepalive = setInterval(() => out.write(': keepalive\n\n'), KEEPALIVE_MS);
      keepalive.unref();
      request.raw.on('close', () => {
        clearInterval(keepalive);
        open.delete(out);
        stop();
      });
    },
  );
};
