/**
 * What a user who may see no phone numbers is shown instead. Chats whose messenger id is the customer's number
 * (whatsapp, viber) carry, in place of it, `hidden:` and the gateway's id of the chat, which the frame's routes
 * take back; phone fields show only their last two digits.
 */
const NUMBERED: ReadonlySet<string> = new Set(['whatsapp', 'viber', 'whatsgroup']);
const PHONE_LIKE = /^\+?[\d\s().-]{7,}$/;

export const hiddenChatIdPrefix = 'hidden:';

export function maskPhone(value: string): string {
  const digits = value.replace(/\D/g, '');
  return `••••${digits.slice(-2)}`;
}

export const hidesNumber = (chatType: string): boolean => NUMBERED.has(chatType);

export const hiddenChatId = (chatRef: string): string => `${hiddenChatIdPrefix}${chatRef}`;

/** The chat ref a hidden chat id stands for, if it is one. */
export const chatRefOfHidden = (chatId: string | null | undefined): string | undefined =>
  chatId?.startsWith(hiddenChatIdPrefix) ? chatId.slice(hiddenChatIdPrefix.length) : undefined;

const maskName = (v: unknown) => (typeof v === 'string' && PHONE_LIKE.test(v) ? maskPhone(v) : v);

/**
 * An event payload (or any object of one) without phone numbers: `phone` fields masked, the `chat_id` of numbered
 * chats replaced, names that are numbers masked. `chatRef` is the event's chat, when known.
 */
export function withoutPhones(value: unknown, chatRef?: string, chatType?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutPhones(v, chatRef, chatType));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const type = typeof source.chat_type === 'string' ? source.chat_type : chatType;
  const ref = typeof source.chat_ref === 'string' ? source.chat_ref : chatRef;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(source)) {
    if (key === 'phone' || key === 'pairing_phone') out[key] = typeof v === 'string' ? maskPhone(v) : v;
    else if (key === 'chat_id' && typeof v === 'string' && type !== undefined && hidesNumber(type)) out[key] = ref ? hiddenChatId(ref) : maskPhone(v);
    else if (key === 'name' || key === 'contact_name' || key === 'messenger_name' || key === 'crm_contact_name') out[key] = maskName(v);
    else out[key] = withoutPhones(v, ref, type);
  }
  // A numbered chat without a name would show its stand-in id: it shows the masked number instead.
  if ('name' in source && source.name === null && typeof source.chat_id === 'string' && type !== undefined && hidesNumber(type)) out.name = maskPhone(source.chat_id);
  return out;
}
