import { describe, expect, it, vi } from 'vitest';
import type { BffChat } from '../../../../contract/bff-chats.ts';
import type { BffClient } from '@/lib/bff-client.ts';
import { askCrmToCreate, contactToCreate, suggestedName } from './ask-crm.ts';
import { chatCrmKeys, getChatCrm } from './get-chat-crm.ts';

const chat: BffChat = {
  chat_ref: '00000000-0000-4000-8000-000000000001',
  channel_id: '00000000-0000-4000-8000-0000000c4a11',
  transport: 'tgapi',
  channel_name: null,
  chat_type: 'telegram',
  chat_id: '5551234',
  username: 'anna',
  phone: '79001234567',
  name: '  Anna Petrova ',
  contact_name: null,
  messenger_name: 'Anna Petrova',
  unanswered_count: 0,
  last_activity_at: '2030-01-01T12:00:00.000Z',
  last_message: null,
};

const clientAnswering = (answer: unknown) => {
  const request = vi.fn().mockResolvedValue(answer);
  return { client: { request } as unknown as BffClient, request };
};

describe('the CRM endpoints of the chat frame', () => {
  it('reads a chat’s CRM card at its own path', async () => {
    const { client, request } = clientAnswering({ contact: null, deals: [] });
    await expect(getChatCrm(client, chat.chat_ref)).resolves.toEqual({ contact: null, deals: [] });
    expect(request).toHaveBeenCalledWith('GET', `/chats/${chat.chat_ref}/crm`);
    expect(chatCrmKeys.chat(chat.chat_ref)).toEqual(['crm', 'chat', chat.chat_ref]);
  });

  it('asks for a contact and for a deal at their routes, with the chat and the name suggested', async () => {
    const { client, request } = clientAnswering({ event: 'crm_entities.contact_add', event_id: 'e' });
    await askCrmToCreate(client, 'contact', { chat_ref: chat.chat_ref, name: 'Anna' });
    await askCrmToCreate(client, 'deal', { chat_ref: chat.chat_ref });
    expect(request.mock.calls).toEqual([
      ['POST', '/crm/contacts', { chat_ref: chat.chat_ref, name: 'Anna' }],
      ['POST', '/crm/deals', { chat_ref: chat.chat_ref }],
    ]);
  });
});

describe('suggestedName', () => {
  it('suggests the chat’s name trimmed, none for a chat without one, at most 200 characters', () => {
    expect(suggestedName(chat)).toBe('Anna Petrova');
    expect(suggestedName({ name: null })).toBeUndefined();
    expect(suggestedName({ name: '   ' })).toBeUndefined();
    expect(suggestedName({ name: 'x'.repeat(250) })).toHaveLength(200);
  });
});

describe('contactToCreate', () => {
  it('tells the host the chat’s handles and name', () => {
    expect(contactToCreate(chat)).toEqual({
      type: 'contact_to_create',
      payload: { channel_id: chat.channel_id, chat_type: 'telegram', chat_id: '5551234', phone: '79001234567', username: 'anna', name: 'Anna Petrova' },
    });
  });

  it('says nothing for a chat the messenger has not given an id yet', () => {
    expect(contactToCreate({ ...chat, chat_id: null })).toBeNull();
  });
});
