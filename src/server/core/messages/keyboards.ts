import type { KeyboardKind } from '../../../contract/channels.ts';
import { keyboardLimits } from '../../../contract/keyboard-limits.ts';
import type { FieldError } from '../../../contract/errors.ts';
import type { Keyboard } from '../../../contract/messages.ts';
import { validationError } from '../errors.ts';

/**
 * One `keyboard` field, three dialects (interface "Keyboard", docs/decisions.md "Messages"). The channel's transport
 * picks the dialect; this module checks a keyboard against it and returns what will actually be sent.
 * What breaks a rule is refused (400, each field named); what a limit cuts off is dropped and reported.
 */

export interface NormalizedKeyboard {
  /** null: nothing is left to send (every button was dropped). */
  keyboard: Keyboard | null;
  /** Specific English sentences naming what was dropped or ignored. */
  warnings: string[];
}

type Strings = Record<string, string>;

interface Findings {
  errors: FieldError[];
  warnings: string[];
}

const telegramOnlyOptions = ['reply_markup', 'one_time_keyboard', 'resize_keyboard', 'selective', 'remove_keyboard'] as const;
const replyOnlyOptions = ['one_time_keyboard', 'resize_keyboard', 'selective'] as const;
const maxButtonTypes = ['callback', 'link', 'message'] as const;
const maxIntents = ['default', 'positive', 'negative'] as const;

/** Characters as people count them (code points), not UTF-16 units. */
const chars = (s: string): number => [...s].length;
const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function isUrl(value: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** A button as an object of known string fields; anything else is an error at its path. */
function buttonFields(button: unknown, path: string, allowed: readonly string[], found: Findings): Strings | null {
  if (typeof button !== 'object' || button === null || Array.isArray(button)) {
    found.errors.push({ field: path, message: 'must be a button object' });
    return null;
  }
  const fields: Strings = {};
  let ok = true;
  for (const [name, value] of Object.entries(button)) {
    if (!allowed.includes(name)) {
      found.errors.push({ field: `${path}.${name}`, message: 'is not allowed' });
      ok = false;
    } else if (typeof value !== 'string') {
      found.errors.push({ field: `${path}.${name}`, message: 'must be string' });
      ok = false;
    } else if (value.length === 0) {
      found.errors.push({ field: `${path}.${name}`, message: 'must not be empty' });
      ok = false;
    } else {
      fields[name] = value;
    }
  }
  return ok ? fields : null;
}

/** Rows of buttons: every row an array with at least one button, every button an object. */
function buttonRows(keyboard: Keyboard, allowed: readonly string[], found: Findings): { path: string; fields: Strings; row: number }[] {
  const buttons: { path: string; fields: Strings; row: number }[] = [];
  keyboard.buttons.forEach((row, r) => {
    if (!Array.isArray(row)) {
      found.errors.push({ field: `keyboard.buttons.${r}`, message: 'must be a row (an array of buttons)' });
      return;
    }
    if (row.length === 0) found.errors.push({ field: `keyboard.buttons.${r}`, message: 'must have at least one button' });
    row.forEach((button: unknown, b) => {
      const path = `keyboard.buttons.${r}.${b}`;
      const fields = buttonFields(button, path, allowed, found);
      if (fields) buttons.push({ path, fields, row: r });
    });
  });
  return buttons;
}

function ignoreOptions(keyboard: Keyboard, options: readonly (keyof Keyboard)[], why: string, found: Findings): void {
  for (const option of options) {
    if (keyboard[option] !== undefined) found.warnings.push(`keyboard.${option}: ${why}; ignored`);
  }
}

function requireButtons(keyboard: Keyboard, found: Findings): boolean {
  if (keyboard.buttons.length > 0) return true;
  found.errors.push({ field: 'keyboard.buttons', message: 'must have at least one button' });
  return false;
}

/** Business API: a flat list; the first 10 are sent; text up to 20 characters; every button needs a payload. */
function business(keyboard: Keyboard, found: Findings): Keyboard | null {
  ignoreOptions(keyboard, telegramOnlyOptions, 'only telegram-bot keyboards have this option', found);
  if (!requireButtons(keyboard, found)) return null;
  const { buttons: max, textChars } = keyboardLimits.business;
  if (keyboard.buttons.length > max) {
    found.warnings.push(`keyboard.buttons: ${plural(keyboard.buttons.length - max, 'button')} beyond the first ${max} were dropped`);
  }
  const kept: Strings[] = [];
  keyboard.buttons.slice(0, max).forEach((button, i) => {
    const path = `keyboard.buttons.${i}`;
    const fields = buttonFields(button, path, ['text', 'type', 'payload'], found);
    if (!fields) return;
    if (fields.text !== undefined && chars(fields.text) > textChars) {
      found.errors.push({ field: `${path}.text`, message: `must be at most ${textChars} characters` });
    }
    if (fields.payload === undefined) found.errors.push({ field: `${path}.payload`, message: 'is required' });
    kept.push(fields);
  });
  return { buttons: kept };
}

/** Telegram bot: `remove_keyboard` takes the custom reply keyboard away, and carries nothing else. */
function removeTelegramKeyboard(keyboard: Keyboard, found: Findings): Keyboard {
  if (keyboard.reply_markup === 'inline') {
    found.errors.push({ field: 'keyboard.remove_keyboard', message: 'removes a reply keyboard; it cannot go with reply_markup inline' });
  }
  if (keyboard.buttons.length > 0) found.warnings.push('keyboard.buttons: ignored, because remove_keyboard removes the keyboard');
  ignoreOptions(keyboard, ['one_time_keyboard', 'resize_keyboard'], 'a removed keyboard has no layout', found);
  return { reply_markup: 'reply', remove_keyboard: true, ...(keyboard.selective === undefined ? {} : { selective: keyboard.selective }), buttons: [] };
}

function checkInlineButton(path: string, fields: Strings, found: Findings): Strings {
  const { url, callback_data: data } = fields;
  if ((url === undefined) === (data === undefined)) {
    found.errors.push({ field: path, message: 'an inline button needs exactly one of url or callback_data' });
  }
  if (url !== undefined && !isUrl(url, ['http:', 'https:', 'tg:'])) {
    found.errors.push({ field: `${path}.url`, message: 'must be an http, https or tg URL' });
  }
  const { callbackBytes, textChars } = keyboardLimits.telegram;
  if (data !== undefined && utf8Bytes(data) > callbackBytes) {
    found.errors.push({ field: `${path}.callback_data`, message: `must be 1 to ${callbackBytes} bytes (UTF-8)` });
  }
  if (fields.text !== undefined) return fields;
  // Telegram shows a label on every button: one given without text shows what it does.
  const label = url ?? data ?? '';
  return { ...fields, text: chars(label) > textChars ? `${[...label].slice(0, textChars - 1).join('')}…` : label };
}

function checkReplyButton(path: string, fields: Strings, found: Findings): Strings {
  const { textChars } = keyboardLimits.telegram;
  if (fields.text === undefined) found.errors.push({ field: `${path}.text`, message: 'is required for reply buttons' });
  else if (chars(fields.text) > textChars) found.errors.push({ field: `${path}.text`, message: `must be at most ${textChars} characters` });
  for (const inlineOnly of ['url', 'callback_data']) {
    if (fields[inlineOnly] !== undefined) found.errors.push({ field: `${path}.${inlineOnly}`, message: 'only inline buttons have it' });
  }
  return fields;
}

/**
 * Telegram bot: rows of buttons, inline (the default) or reply. Inline buttons with text over 64 characters
 * are not sent; of the rest, the first 12 in reading order are.
 */
function telegram(keyboard: Keyboard, found: Findings): Keyboard | null {
  if (keyboard.remove_keyboard === true) return removeTelegramKeyboard(keyboard, found);
  const markup = keyboard.reply_markup ?? 'inline';
  if (markup === 'inline') ignoreOptions(keyboard, replyOnlyOptions, 'only reply keyboards have this option', found);
  if (!requireButtons(keyboard, found)) return null;
  const given = buttonRows(keyboard, ['text', 'url', 'callback_data'], found);
  if (found.errors.length > 0) return null;

  const { buttons: max, textChars } = keyboardLimits.telegram;
  const tooLong = markup === 'inline' ? given.filter((b) => b.fields.text !== undefined && chars(b.fields.text) > textChars) : [];
  if (tooLong.length > 0) {
    found.warnings.push(
      `${tooLong.map((b) => b.path).join(', ')}: ${tooLong.length === 1 ? 'an inline button' : 'inline buttons'} with text over ${textChars} characters ${tooLong.length === 1 ? 'was' : 'were'} not sent`,
    );
  }
  const sendable = given.filter((b) => !tooLong.includes(b));
  if (sendable.length > max) found.warnings.push(`keyboard.buttons: ${plural(sendable.length - max, 'button')} beyond the first ${max} were dropped`);

  const rows = new Map<number, Strings[]>();
  for (const { path, fields, row } of sendable.slice(0, max)) {
    const checked = markup === 'inline' ? checkInlineButton(path, fields, found) : checkReplyButton(path, fields, found);
    rows.set(row, [...(rows.get(row) ?? []), checked]);
  }
  if (rows.size === 0) {
    found.warnings.push('keyboard: no button is left to send; the message goes without a keyboard');
    return null;
  }
  const options = markup === 'reply' ? replyOnlyOptions.filter((o) => keyboard[o] !== undefined) : [];
  return { reply_markup: markup, ...Object.fromEntries(options.map((o) => [o, keyboard[o]])), buttons: [...rows.values()] };
}

/** Max bot: rows of typed buttons, each with text; callback buttons carry a payload, link buttons a URL. */
function maxBot(keyboard: Keyboard, found: Findings): Keyboard | null {
  ignoreOptions(keyboard, telegramOnlyOptions, 'only telegram-bot keyboards have this option', found);
  if (!requireButtons(keyboard, found)) return null;
  const given = buttonRows(keyboard, ['type', 'text', 'payload', 'url', 'intent'], found);
  const rows = new Map<number, Strings[]>();
  for (const { path, fields, row } of given) {
    const { type, intent } = fields;
    if (type === undefined) found.errors.push({ field: `${path}.type`, message: 'is required' });
    else if (!(maxButtonTypes as readonly string[]).includes(type)) {
      found.errors.push({ field: `${path}.type`, message: `must be one of: ${maxButtonTypes.join(', ')}` });
    }
    const limits = keyboardLimits.max;
    if (fields.text === undefined) found.errors.push({ field: `${path}.text`, message: 'is required' });
    else if (chars(fields.text) > limits.textChars) found.errors.push({ field: `${path}.text`, message: `must be at most ${limits.textChars} characters` });
    if (fields.payload !== undefined && chars(fields.payload) > limits.payloadChars) {
      found.errors.push({ field: `${path}.payload`, message: `must be at most ${limits.payloadChars} characters` });
    }
    if (fields.url !== undefined && chars(fields.url) > limits.urlChars) found.errors.push({ field: `${path}.url`, message: `must be at most ${limits.urlChars} characters` });
    if (type === 'callback' && fields.payload === undefined) found.errors.push({ field: `${path}.payload`, message: 'is required for callback buttons' });
    if (type !== 'callback' && fields.payload !== undefined) found.errors.push({ field: `${path}.payload`, message: 'only callback buttons have it' });
    if (type === 'link' && fields.url === undefined) found.errors.push({ field: `${path}.url`, message: 'is required for link buttons' });
    if (type !== 'link' && fields.url !== undefined) found.errors.push({ field: `${path}.url`, message: 'only link buttons have it' });
    if (type === 'link' && fields.url !== undefined && !isUrl(fields.url, ['http:', 'https:'])) {
      found.errors.push({ field: `${path}.url`, message: 'must be an http or https URL' });
    }
    if (intent !== undefined && !(maxIntents as readonly string[]).includes(intent)) {
      found.errors.push({ field: `${path}.intent`, message: `must be one of: ${maxIntents.join(', ')}` });
    }
    // MAX colours only callback buttons: elsewhere the intent is dropped, and said so.
    const { intent: _dropped, ...rest } = fields;
    const sent = intent !== undefined && type !== 'callback' ? rest : fields;
    if (sent !== fields) found.warnings.push(`${path}.intent: only callback buttons have an intent in max bots; it was dropped`);
    rows.set(row, [...(rows.get(row) ?? []), sent]);
  }
  return { buttons: [...rows.values()] };
}

/**
 * Checks `keyboard` against the dialect of a channel's transport (`kind`, from its capabilities) and returns
 * the keyboard to send with the warnings to answer. Throws VALIDATION_ERROR naming every offending field.
 */
export function normalizeKeyboard(kind: KeyboardKind | null, keyboard: Keyboard): NormalizedKeyboard {
  if (kind === null) throw validationError([{ field: 'keyboard', message: 'this transport has no keyboards' }], 'Keyboard is not valid for this transport');
  const found: Findings = { errors: [], warnings: [] };
  const normalized = kind === 'business' ? business(keyboard, found) : kind === 'telegram_bot' ? telegram(keyboard, found) : maxBot(keyboard, found);
  if (found.errors.length > 0) throw validationError(found.errors, 'Keyboard is not valid for this transport');
  return { keyboard: normalized, warnings: found.warnings };
}

/**
 * Business-API buttons go with a text only: the platform's interactive messages carry words and buttons (a template
 * has buttons of its own, and a file with buttons would need words the interface's message does not have). A
 * business keyboard on a file or a template is not sent, and the caller is told.
 */
export function keyboardForContent(normalized: NormalizedKeyboard, kind: KeyboardKind | null, content: { text?: string | undefined }): NormalizedKeyboard {
  if (kind !== 'business' || normalized.keyboard === null || content.text !== undefined) return normalized;
  return { keyboard: null, warnings: [...normalized.warnings, 'keyboard: not sent: business-API buttons go with a text only, not with a file or a template'] };
}
