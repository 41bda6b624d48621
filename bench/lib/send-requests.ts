import type { Request } from 'autocannon';
import { benchChatId } from './gateway-process.ts';

/**
 * autocannon's requests for `POST /v2/messages`: the n-th request sends `text n` to the bench's chat n mod
 * `chats`, with the n-th token (round robin), so that no token meets its rate limit.
 */
export function sendRequests(channelId: string, tokens: string[], chats: number, text = 'bench message'): Request[] {
  let n = 0;
  return [
    {
      setupRequest: (req) => {
        const i = n++;
        return {
          ...req,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i % tokens.length]}` },
          body: JSON.stringify({ channel_id: channelId, recipient: { chat_type: 'whatsapp', chat_id: benchChatId(i % chats) }, text: `${text} ${i}` }),
        };
      },
    },
  ];
}
