import type { KeyboardKind, Transport, TransportCapabilities } from '../../../../contract/channels.ts';
import type { Keyboard, SendMessageBody, TemplateRef } from '../../../../contract/messages.ts';
import type { ButtonsObject, V3SendBody } from '../../../../contract/v3/messages.ts';
import type { ChannelRecord } from '../../../core/channels/ports.ts';
import { channelStateError, V3Error } from './errors.ts';

const invalid = (fields: string[], description = 'Message data is invalid') => new V3Error(400, 'INVALID_MESSAGE_DATA', description, { fields });

/** `@template: <guid> { [[value1]]; [[value2]] }`: a WABA template written as the text, as the template list gives its code. */
const TEMPLATE_CODE = /^\s*@template:\s*([0-9a-fA-F-]{36})\s*(?:\{([\s\S]*)\})?\s*$/;

function templateOfText(text: string): { id: string; values: string[] } | null {
  const m = TEMPLATE_CODE.exec(text);
  if (!m) return null;
  const values = [...(m[2] ?? '').matchAll(/\[\[([\s\S]*?)\]\]/g)].map((v) => v[1]!);
  return { id: m[1]!.toLowerCase(), values };
}

/** What the v3 body says before the channel is known: one kind of content, and text that is not blank. */
export function checkContent(body: V3SendBody): void {
  if (body.text !== undefined && body.contentUri !== undefined) {
    throw new V3Error(400, 'MESSAGE_ONLY_TEXT_OR_CONTENT', 'Message can contain only text or content', { fields: ['text', 'contentUri'] });
  }
  if (body.text !== undefined && body.text.trim() === '') throw new V3Error(400, 'MESSAGES_TEXT_CAN_NOT_BE_BLANK', 'Text can not be blank', { fields: ['text'] });
  if (body.text === undefined && body.contentUri === undefined && body.templateId === undefined) {
    throw new V3Error(400, 'MESSAGE_NOTHING_TO_SEND', 'Nothing to send: give text, contentUri or templateId', { fields: ['text'] });
  }
  if (body.contentUri !== undefined && !/^https?:\/\/[^\s]+$/i.test(body.contentUri)) throw invalid(['contentUri'], 'contentUri must be an http or https URL');
}

const tooLongCode: Partial<Record<Transport, string>> = {
  instAPI: 'MESSAGES_TOO_LONG_INSTAGRAM',
  telegram: 'MESSAGES_TOO_LONG_TELEGRAM',
  tgapi: 'MESSAGES_TOO_LONG_TELEGRAM',
  wapi: 'MESSAGES_TOO_LONG_WABA',
  vk: 'MESSAGES_TOO_LONG_VK',
  avito: 'MESSAGES_TOO_LONG_AVITO',
  viber: 'MESSAGES_TOO_LONG_VIBER',
};

const v3TransportName = (transport: Transport) => (transport === 'instAPI' ? 'instagram' : transport);

/** The channel's own refusal of a send, in v3's codes: its state, its transport, its text limit. */
export function checkAgainstChannel(body: V3SendBody, channel: ChannelRecord, capabilities: TransportCapabilities): void {
  if (!(capabilities.chat_types as readonly string[]).includes(body.chatType)) {
    const transport = v3TransportName(channel.transport);
    throw new V3Error(400, 'WRONG_TRANSPORT', `You can't send message to ${body.chatType} chat from ${transport} transport`, {
      channelId: channel.id,
      transport,
      chatType: body.chatType,
    });
  }
  if (channel.state.status !== 'active') throw channelStateError(channel.state.status, channel.state.reason);
  const text = body.text !== undefined && templateOfText(body.text) === null ? body.text : undefined;
  if (text !== undefined && [...text].length > capabilities.text_limit) {
    throw new V3Error(400, tooLongCode[channel.transport] ?? 'MESSAGE_TEXT_TOO_LONG', `Text is longer than ${capabilities.text_limit} characters`, {
      fields: ['text'],
      limit: capabilities.text_limit,
    });
  }
}

type V3Button = Record<string, string | undefined>;

const rows = (buttons: ButtonsObject['buttons']): V3Button[][] =>
  (buttons ?? []).map((row) => (Array.isArray(row) ? row : [row]) as V3Button[]);
const flat = (buttons: ButtonsObject['buttons']): V3Button[] => (buttons ?? []).flatMap((row) => (Array.isArray(row) ? row : [row]) as V3Button[]);

const defined = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** `buttonsObject` in the channel's layout as the gateway's keyboard of that dialect. */
export function keyboardOf(kind: KeyboardKind | null, object: ButtonsObject): Keyboard {
  if (kind === 'business') {
    // Without a payload a reply names the button by its number, from 0.
    return { buttons: flat(object.buttons).map((b, i) => defined({ text: b.text, type: b.type, payload: b.payload ?? String(i) })) };
  }
  if (kind === 'telegram_bot') {
    return defined({
      reply_markup: object.replyMarkup,
      remove_keyboard: object.removeKeyboard,
      one_time_keyboard: object.oneTimeKeyboard,
      buttons: rows(object.buttons).map((row) => row.map((b) => defined({ text: b.text, url: b.url, callback_data: b.callbackData }))),
    }) as Keyboard;
  }
  return { buttons: rows(object.buttons).map((row) => row.map((b) => defined({ type: b.type, text: b.text, payload: b.payload, url: b.url, intent: b.intent }))) };
}

/**
 * A v3 send as the gateway's send: the same use-case serves both faces. `crmUserId` is dropped for a sidecar key;
 * buttons become a template's quick replies here, or a keyboard once the channel's dialect is known (`keyboardOf`).
 */
export function toSendBody(body: V3SendBody, sidecar: boolean): SendMessageBody {
  const fromText = body.text !== undefined ? templateOfText(body.text) : null;
  const templateId = body.templateId ?? fromText?.id;
  let template: TemplateRef | undefined;
  if (templateId !== undefined) {
    const values = body.templateValues ?? fromText?.values;
    const buttons = body.buttonsObject ? flat(body.buttonsObject.buttons).map((b) => ({ payload: b.payload ?? '' })) : undefined;
    template = defined({ id: templateId, values, buttons });
  }
  return defined({
    channel_id: body.channelId,
    recipient: defined({ chat_type: body.chatType, chat_id: body.chatId, username: body.username, phone: body.phone }),
    quoted_message_id: body.refMessageId,
    text: template ? undefined : body.text,
    attachment: body.contentUri !== undefined ? { url: body.contentUri } : undefined,
    template,
    crm_user_id: sidecar ? undefined : body.crmUserId,
    reset_unanswered: body.clearUnanswered,
  }) as SendMessageBody;
}

const fieldNames: [RegExp, string][] = [
  [/^channel_id/, 'channelId'],
  [/^recipient\.chat_type/, 'chatType'],
  [/^recipient\.chat_id/, 'chatId'],
  [/^recipient\.(username|phone)/, '$1'],
  [/^quoted_message_id/, 'refMessageId'],
  [/^attachment(\.url)?/, 'contentUri'],
  [/^template\.values/, 'templateValues'],
  [/^template\.buttons/, 'buttonsObject.buttons'],
  [/^template(\.id)?$/, 'templateId'],
  [/^crm_user_id/, 'crmUserId'],
  [/^keyboard/, 'buttonsObject'],
];

/** A field the gateway's send names, as the v3 body calls it. */
export function v3FieldName(field: string): string {
  let name = field;
  for (const [from, to] of fieldNames) name = name.replace(from, to);
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}
