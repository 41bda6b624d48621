/**
 * A small client of the public API v3, written from that API's published description alone (base URL + `/v3`,
 * `Authorization: Bearer <apiKey>`, bare camelCase bodies) and nothing of this gateway, as a CRM built on v3 would
 * be. It talks over real HTTP; tests point it at a gateway on a loopback port.
 */

export class V3ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(`v3 API answered ${status}: ${JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

export interface V3SendMessage {
  channelId: string;
  chatType: string;
  chatId?: string;
  text?: string;
  contentUri?: string;
  refMessageId?: string;
  crmUserId?: string;
  crmMessageId?: string;
  username?: string;
  phone?: string;
  clearUnanswered?: boolean;
  templateId?: string;
  templateValues?: string[];
  buttonsObject?: Record<string, unknown>;
}

export interface V3ChannelItem {
  channelId: string;
  transport: string;
  plainId: string;
  state: string;
  name?: string;
}

export interface V3ContactItem {
  id: string;
  responsibleUserId: string;
  name: string;
  contactData: { chatType: string; chatId?: string; username?: string; phone?: string }[];
  uri?: string;
}

export interface V3DealItem {
  id: string;
  responsibleUserId: string;
  name: string;
  uri: string;
  contacts: string[];
  closed: boolean;
}

export interface V3WebhookSettings {
  webhooksUri: string;
  subscriptions: { messagesAndStatuses?: boolean; contactsAndDealsCreation?: boolean; channelsUpdates?: boolean; templateStatus?: boolean };
}

export function v3Client(baseUrl: string, apiKey: string) {
  const root = `${baseUrl.replace(/\/$/, '')}/v3`;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${root}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Some answers are plain text (the webhook route's `OK`).
    }
    if (!res.ok) throw new V3ApiError(res.status, parsed);
    return parsed as T;
  }

  /** The CRUD routes users, contacts and deals share. */
  const entity = <T>(name: string) => ({
    upsert: (items: T[]) => call<unknown>('POST', `/${name}`, items),
    get: (id: string) => call<T>('GET', `/${name}/${encodeURIComponent(id)}`),
    remove: (id: string) => call<unknown>('DELETE', `/${name}/${encodeURIComponent(id)}`),
    bulkDelete: (ids: string[]) => call<string[]>('PATCH', `/${name}/bulk_delete`, ids),
  });

  return {
    channels: () => call<V3ChannelItem[]>('GET', '/channels'),
    send: (message: V3SendMessage) => call<{ messageId: string; chatId: string }>('POST', '/message', message),
    edit: (messageId: string, change: { text?: string; contentUri?: string; crmUserId?: string }) => call<unknown>('PATCH', `/message/${messageId}`, change),
    deleteMessage: (messageId: string) => call<unknown>('DELETE', `/message/${messageId}`),
    users: { ...entity<{ id: string; name: string; phone?: string }>('users'), list: () => call<{ id: string; name: string; phone?: string }[]>('GET', '/users') },
    contacts: { ...entity<V3ContactItem>('contacts'), list: (offset = 0) => call<{ count: number; data: V3ContactItem[] }>('GET', `/contacts?offset=${offset}`) },
    deals: { ...entity<V3DealItem>('deals'), list: (offset = 0) => call<{ count: number; data: V3DealItem[] }>('GET', `/deals?offset=${offset}`) },
    pipelines: {
      upsert: (items: { id: string; name: string; stages?: { id: string; name: string }[] }[]) => call<unknown>('POST', '/pipelines', items),
      list: () => call<{ id: string; name: string; stages: { id: string; name: string }[] }[]>('GET', '/pipelines'),
    },
    iframe: (body: {
      user: { id: string; name?: string };
      scope: 'global' | 'card';
      filter?: { chatType: string; chatId?: string; name?: string }[];
      activeChat?: { channelId?: string; chatType: string; chatId: string };
      options?: { clientType?: string; useDealsEvents?: boolean; useMessageEvents?: boolean };
    }) => call<{ url: string }>('POST', '/iframe', body),
    unanswered: (userId: string) => call<{ counterV2: number; type: 'red' | 'grey' | null; lastMsgDateTime: string | null }>('GET', `/unanswered/${encodeURIComponent(userId)}`),
    templates: (limit = 100, offset = 0) => call<{ templateGuid: string; status: string }[]>('GET', `/templates/whatsapp?limit=${limit}&offset=${offset}`),
    webhooks: {
      set: (settings: V3WebhookSettings) => call<unknown>('PATCH', '/webhooks', settings),
      get: () => call<V3WebhookSettings>('GET', '/webhooks'),
    },
  };
}

export type V3Client = ReturnType<typeof v3Client>;
