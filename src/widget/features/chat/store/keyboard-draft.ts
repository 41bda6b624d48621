import type { KeyboardKind } from '../../../../contract/channels.ts';
import { codePoints, isUrlOf, keyboardLimits, keyboardUrlProtocols, utf8Bytes } from '../../../../contract/keyboard-limits.ts';
import type { Keyboard } from '../../../../contract/messages.ts';

/**
 * The buttons an agent is putting on a message, in the dialect of the chat's channel (interface "Keyboard"): the
 * business API's flat list, a telegram bot's rows (inline or reply), or a MAX bot's rows of typed buttons. The
 * checks below use the server's limits and count as it does, so a keyboard they pass is sent whole.
 */

export type ButtonType = 'callback' | 'link' | 'message';
export type Intent = 'default' | 'positive' | 'negative';
export type Markup = 'inline' | 'reply';
export type ReplyOption = 'oneTime' | 'fitted' | 'selective';

export interface DraftButton {
  /** Names the button for rendering and focus while rows change around it. */
  id: number;
  text: string;
  /** Telegram inline: callback or link; MAX: any of the three. Business and reply buttons have no type. */
  type: ButtonType;
  /** The business API's payload, a telegram button's callback_data, a MAX callback button's payload. */
  payload: string;
  url: string;
  /** MAX callback buttons only. */
  intent: Intent;
}

export interface KeyboardDraft {
  kind: KeyboardKind;
  /** Telegram bots only: buttons under the message, or in place of the customer's keyboard. */
  markup: Markup;
  options: Record<ReplyOption, boolean>;
  /** The business API's list is the one row. */
  rows: DraftButton[][];
  nextId: number;
}

/** What the builder hands the composer: the draft to edit again, and the keyboard to send. */
export interface AttachedKeyboard {
  draft: KeyboardDraft;
  keyboard: Keyboard;
}

/** The composer's buttons: those for the next message, the builder while it is open, the ones just sent. */
export interface ComposerButtons {
  attached?: AttachedKeyboard | null;
  /** Set while the builder is open: what had the focus before, to give it back. */
  opener?: Element | null;
  /** The keyboard of the message just sent: what the gateway changed in it is said. */
  sent?: Keyboard;
}

const blank = (id: number): DraftButton => ({ id, text: '', type: 'callback', payload: '', url: '', intent: 'default' });

export const newDraft = (kind: KeyboardKind): KeyboardDraft => ({
  kind,
  markup: 'inline',
  options: { oneTime: false, fitted: false, selective: false },
  rows: [[blank(1)]],
  nextId: 2,
});

/** The fields a button of the draft has, by dialect, markup and type. */
export interface ButtonShape {
  /** The types to choose from; null when the dialect has none. */
  types: readonly ButtonType[] | null;
  payload: boolean;
  url: boolean;
  intent: boolean;
}

export function shapeOf(draft: Pick<KeyboardDraft, 'kind' | 'markup'>, button: Pick<DraftButton, 'type'>): ButtonShape {
  if (draft.kind === 'business') return { types: null, payload: true, url: false, intent: false };
  if (draft.kind === 'telegram_bot') {
    if (draft.markup === 'reply') return { types: null, payload: false, url: false, intent: false };
    return { types: ['callback', 'link'], payload: button.type === 'callback', url: button.type === 'link', intent: false };
  }
  return { types: ['callback', 'link', 'message'], payload: button.type === 'callback', url: button.type === 'link', intent: button.type === 'callback' };
}

/** Buttons the dialect sends at most; null where the server keeps every one. */
export function maxButtons(kind: KeyboardKind): number | null {
  return kind === 'business' ? keyboardLimits.business.buttons : kind === 'telegram_bot' ? keyboardLimits.telegram.buttons : null;
}

export const buttonCount = (draft: KeyboardDraft): number => draft.rows.reduce((n, row) => n + row.length, 0);

export type DraftAction =
  | { type: 'markup'; markup: Markup }
  | { type: 'option'; option: ReplyOption; on: boolean }
  | { type: 'addRow' }
  | { type: 'addButton'; row: number }
  | { type: 'remove'; id: number }
  | { type: 'edit'; id: number; patch: Partial<Omit<DraftButton, 'id'>> };

/** The draft after one change; a button beyond the dialect's limit is not added (the server would drop it). */
export function draftReducer(draft: KeyboardDraft, action: DraftAction): KeyboardDraft {
  switch (action.type) {
    case 'markup':
      return { ...draft, markup: action.markup };
    case 'option':
      return { ...draft, options: { ...draft.options, [action.option]: action.on } };
    case 'addRow':
    case 'addButton': {
      const max = maxButtons(draft.kind);
      if (max !== null && buttonCount(draft) >= max) return draft;
      const button = blank(draft.nextId);
      // The business API's list is one row: a new row there is one more button in it.
      const newRow = action.type === 'addRow' && draft.kind !== 'business';
      const at = action.type === 'addButton' ? action.row : 0;
      const rows = newRow || draft.rows.length === 0 ? [...draft.rows, [button]] : draft.rows.map((row, i) => (i === at ? [...row, button] : row));
      return { ...draft, rows, nextId: draft.nextId + 1 };
    }
    case 'remove': {
      const rows = draft.rows.map((row) => row.filter((b) => b.id !== action.id)).filter((row) => row.length > 0);
      return { ...draft, rows };
    }
    case 'edit':
      return { ...draft, rows: draft.rows.map((row) => row.map((b) => (b.id === action.id ? { ...b, ...action.patch } : b))) };
  }
}

/** How long a field's value is against its limit, counted as the server counts it. */
export interface Measure {
  count: number;
  max: number;
  unit: 'chars' | 'bytes';
}

export type Problem = { code: 'required' } | { code: 'tooLong'; max: number; unit: 'chars' | 'bytes' } | { code: 'badUrl'; protocols: readonly string[] };

export interface FieldCheck {
  measure: Measure | null;
  problem: Problem | null;
}

export type ButtonField = 'text' | 'payload' | 'url';

export interface DraftCheck {
  /** Each button's fields that it has, by button id. */
  buttons: Map<number, Partial<Record<ButtonField, FieldCheck>>>;
  count: number;
  max: number | null;
  /** No button at all: a keyboard needs one. */
  empty: boolean;
  /** More buttons than the dialect sends (a builder never adds them; a channel's dialect may change under it). */
  tooMany: boolean;
  /** Fields with a problem, over all buttons. */
  problems: number;
  valid: boolean;
}

const chars = (value: string, max: number): Measure => ({ count: codePoints(value), max, unit: 'chars' });

function field(value: string, measure: Measure | null, extra: (value: string) => Problem | null = () => null): FieldCheck {
  if (value.trim() === '') return { measure, problem: { code: 'required' } };
  if (measure && measure.count > measure.max) return { measure, problem: { code: 'tooLong', max: measure.max, unit: measure.unit } };
  return { measure, problem: extra(value) };
}

const url = (protocols: readonly string[]) => (value: string): Problem | null => (isUrlOf(value, protocols) ? null : { code: 'badUrl', protocols });

/** Every button's words are required here: a button the customer sees without words helps no one. */
function checkButton(draft: KeyboardDraft, b: DraftButton): Partial<Record<ButtonField, FieldCheck>> {
  const shape = shapeOf(draft, b);
  if (draft.kind === 'business') {
    return { text: field(b.text, chars(b.text, keyboardLimits.business.textChars)), payload: field(b.payload, null) };
  }
  if (draft.kind === 'telegram_bot') {
    const { textChars, callbackBytes } = keyboardLimits.telegram;
    const checks: Partial<Record<ButtonField, FieldCheck>> = { text: field(b.text, chars(b.text, textChars)) };
    if (shape.payload) checks.payload = field(b.payload, { count: utf8Bytes(b.payload), max: callbackBytes, unit: 'bytes' });
    if (shape.url) checks.url = field(b.url, null, url(keyboardUrlProtocols.telegram));
    return checks;
  }
  const limits = keyboardLimits.max;
  const checks: Partial<Record<ButtonField, FieldCheck>> = { text: field(b.text, chars(b.text, limits.textChars)) };
  if (shape.payload) checks.payload = field(b.payload, chars(b.payload, limits.payloadChars));
  if (shape.url) checks.url = field(b.url, chars(b.url, limits.urlChars), url(keyboardUrlProtocols.max));
  return checks;
}

export function checkDraft(draft: KeyboardDraft): DraftCheck {
  const buttons = new Map<number, Partial<Record<ButtonField, FieldCheck>>>();
  let problems = 0;
  for (const b of draft.rows.flat()) {
    const checks = checkButton(draft, b);
    problems += Object.values(checks).filter((c) => c.problem !== null).length;
    buttons.set(b.id, checks);
  }
  const count = buttonCount(draft);
  const max = maxButtons(draft.kind);
  const empty = count === 0;
  const tooMany = max !== null && count > max;
  return { buttons, count, max, empty, tooMany, problems, valid: !empty && !tooMany && problems === 0 };
}

/** The `keyboard` of the send, in the channel's dialect; only what the draft's shape shows goes with it. */
export function toKeyboard(draft: KeyboardDraft): Keyboard {
  if (draft.kind === 'business') return { buttons: draft.rows.flat().map((b) => ({ text: b.text, payload: b.payload })) };
  if (draft.kind === 'telegram_bot') {
    if (draft.markup === 'reply') {
      const { oneTime, fitted, selective } = draft.options;
      return {
        reply_markup: 'reply',
        ...(oneTime ? { one_time_keyboard: true } : {}),
        ...(fitted ? { resize_keyboard: true } : {}),
        ...(selective ? { selective: true } : {}),
        buttons: draft.rows.map((row) => row.map((b) => ({ text: b.text }))),
      };
    }
    return { reply_markup: 'inline', buttons: draft.rows.map((row) => row.map((b) => (b.type === 'link' ? { text: b.text, url: b.url } : { text: b.text, callback_data: b.payload }))) };
  }
  return {
    buttons: draft.rows.map((row) =>
      row.map((b) => {
        const shape = shapeOf(draft, b);
        return {
          type: b.type,
          text: b.text,
          ...(shape.payload ? { payload: b.payload } : {}),
          ...(shape.url ? { url: b.url } : {}),
          ...(shape.intent && b.intent !== 'default' ? { intent: b.intent } : {}),
        };
      }),
    ),
  };
}
