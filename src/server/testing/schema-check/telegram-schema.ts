import type { ValidateFunction } from 'ajv';
import { cached, loadFixture, type Definitions } from './fixture.ts';

/**
 * Telegram's Bot API as @grammyjs/types declares it (schemas/telegram.json, see the README there): each method's
 * parameters (no parameter the method lacks), its answer `{ok: true, result}` of what it returns or a refusal
 * `{ok: false, error_code, description, parameters?}`, and an update.
 */

/**
 * Allowed deviation: @grammyjs/types requires a private chat's `first_name` and a group's or channel's `title`; the
 * Bot API's reference marks both optional (and the tests' chats, and the emulator's answers, leave them out).
 */
function chatNamesOptional(definitions: Definitions): void {
  for (const name of ['Chat.PrivateChat', 'Chat.GroupChat', 'Chat.SupergroupChat', 'Chat.ChannelChat']) {
    const chat = definitions[name];
    if (chat?.required) chat.required = chat.required.filter((field) => field !== 'first_name' && field !== 'title');
  }
}

const fixture = loadFixture('telegram.json', chatNamesOptional);
export const TELEGRAM_SCHEMA_SOURCE = fixture.source;
const compiled = cached();

const refused = {
  type: 'object',
  properties: {
    ok: { const: false },
    error_code: { type: 'integer' },
    description: { type: 'string' },
    parameters: { type: 'object', properties: { migrate_to_chat_id: { type: 'integer' }, retry_after: { type: 'integer' } }, additionalProperties: false },
  },
  required: ['ok', 'error_code', 'description'],
  additionalProperties: false,
};

/**
 * The parameters of a method (undefined for a method the fixture lacks). `form`: they came in a multipart form, as
 * text (read as the types the method names); a file the form carries stands for its parameter as `attach://<part>`.
 */
export function telegramRequest(method: string, form = false): ValidateFunction | undefined {
  const name = `TelegramParams_${method}`;
  return compiled(`request ${method} ${form}`, () => (fixture.has(name) ? fixture.compile({ $ref: fixture.ref(name) }, form) : undefined));
}

/** A method's parameters with each file of its form standing for its parameter (`attach://<part>`), unless a parameter names it so already. */
export function telegramParamsOf(params: Record<string, unknown>, files: Record<string, unknown> | undefined): Record<string, unknown> {
  const attached = JSON.stringify(params);
  return { ...params, ...Object.fromEntries(Object.keys(files ?? {}).filter((f) => !attached.includes(`attach://${f}`)).map((f) => [f, `attach://${f}`])) };
}

/** Telegram's answer to a method: what it returns, or a refusal. */
export function telegramAnswer(method: string): ValidateFunction | undefined {
  const name = `TelegramResult_${method}`;
  return compiled(`answer ${method}`, () =>
    fixture.has(name)
      ? fixture.compile({ anyOf: [{ type: 'object', properties: { ok: { const: true }, result: { $ref: fixture.ref(name) }, description: { type: 'string' } }, required: ['ok', 'result'], additionalProperties: false }, refused] })
      : undefined,
  );
}

/** An update Telegram posts to a webhook. */
export const telegramUpdate = (): ValidateFunction | undefined => compiled('update', () => fixture.compile({ $ref: fixture.ref('TelegramUpdate') }));
