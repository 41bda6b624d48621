import { describe, expect, it } from 'vitest';
import type { KeyboardKind } from '../../../../contract/channels.ts';
import { checkDraft, draftReducer, newDraft, toKeyboard, type DraftAction, type DraftButton, type KeyboardDraft } from './keyboard-draft.ts';

const apply = (draft: KeyboardDraft, ...actions: DraftAction[]): KeyboardDraft => actions.reduce(draftReducer, draft);

/** A draft of one row with the given buttons (ids 1…n). */
function draftOf(kind: KeyboardKind, buttons: Partial<DraftButton>[], markup: KeyboardDraft['markup'] = 'inline'): KeyboardDraft {
  const rows = [buttons.map((b, i) => ({ id: i + 1, text: 'OK', type: 'callback' as const, payload: 'p', url: '', intent: 'default' as const, ...b }))];
  return { ...newDraft(kind), markup, rows, nextId: buttons.length + 1 };
}

/** The problem of one field of the first button, or null. */
const problemOf = (draft: KeyboardDraft, field: 'text' | 'payload' | 'url') => checkDraft(draft).buttons.get(1)?.[field]?.problem ?? null;
const many = (n: number): Partial<DraftButton>[] => Array.from({ length: n }, (_, i) => ({ text: `B${i}`, payload: `p${i}` }));

describe('business-API buttons', () => {
  it('takes text up to 20 characters, counting an emoji as one', () => {
    expect(problemOf(draftOf('business', [{ text: 'x'.repeat(20) }]), 'text')).toBeNull();
    expect(problemOf(draftOf('business', [{ text: '👍'.repeat(20) }]), 'text')).toBeNull();
    expect(problemOf(draftOf('business', [{ text: 'x'.repeat(21) }]), 'text')).toEqual({ code: 'tooLong', max: 20, unit: 'chars' });
    expect(checkDraft(draftOf('business', [{ text: 'x'.repeat(17) }])).buttons.get(1)?.text?.measure).toEqual({ count: 17, max: 20, unit: 'chars' });
  });

  it('requires a payload on every button', () => {
    expect(problemOf(draftOf('business', [{ payload: '' }]), 'payload')).toEqual({ code: 'required' });
    expect(problemOf(draftOf('business', [{ payload: '  ' }]), 'payload')).toEqual({ code: 'required' });
  });

  it('adds no button beyond 10, and says when a draft has more', () => {
    const ten = draftOf('business', many(10));
    expect(apply(ten, { type: 'addButton', row: 0 })).toBe(ten);
    expect(apply(ten, { type: 'addRow' })).toBe(ten);
    expect(checkDraft(ten)).toMatchObject({ count: 10, max: 10, tooMany: false, valid: true });
    expect(checkDraft(draftOf('business', many(11)))).toMatchObject({ tooMany: true, valid: false });
  });

  it('keeps one flat list: a new row is one more button in it', () => {
    const draft = apply(newDraft('business'), { type: 'addRow' });
    expect(draft.rows.map((r) => r.length)).toEqual([2]);
    expect(toKeyboard(draftOf('business', [{ text: 'Yes', payload: 'y' }, { text: 'No', payload: 'n' }]))).toEqual({
      buttons: [
        { text: 'Yes', payload: 'y' },
        { text: 'No', payload: 'n' },
      ],
    });
  });
});

describe('telegram-bot buttons', () => {
  it('takes text up to 64 characters, inline and reply', () => {
    for (const markup of ['inline', 'reply'] as const) {
      expect(problemOf(draftOf('telegram_bot', [{ text: 'ж'.repeat(64) }], markup), 'text')).toBeNull();
      expect(problemOf(draftOf('telegram_bot', [{ text: 'x'.repeat(65) }], markup), 'text')).toEqual({ code: 'tooLong', max: 64, unit: 'chars' });
    }
  });

  it('takes callback_data of 1 to 64 bytes in UTF-8: 32 Cyrillic letters, not 33', () => {
    expect(problemOf(draftOf('telegram_bot', [{ payload: 'я'.repeat(32) }]), 'payload')).toBeNull();
    const over = draftOf('telegram_bot', [{ payload: 'я'.repeat(32) + 'a' }]);
    expect(problemOf(over, 'payload')).toEqual({ code: 'tooLong', max: 64, unit: 'bytes' });
    expect(checkDraft(over).buttons.get(1)?.payload?.measure).toEqual({ count: 65, max: 64, unit: 'bytes' });
    expect(problemOf(draftOf('telegram_bot', [{ payload: '' }]), 'payload')).toEqual({ code: 'required' });
  });

  it('takes an http, https or tg link, and requires it on a link button', () => {
    const link = (url: string) => problemOf(draftOf('telegram_bot', [{ type: 'link', url }]), 'url');
    expect(link('https://shop.example/orders/1')).toBeNull();
    expect(link('tg://resolve?domain=shop')).toBeNull();
    expect(link('ftp://shop.example/')).toEqual({ code: 'badUrl', protocols: ['http:', 'https:', 'tg:'] });
    expect(link('shop.example')).toMatchObject({ code: 'badUrl' });
    expect(link('')).toEqual({ code: 'required' });
  });

  it('counts 12 buttons over all rows and adds no 13th', () => {
    let draft = newDraft('telegram_bot');
    for (let i = 0; i < 20; i++) draft = apply(draft, i % 3 === 0 ? { type: 'addRow' } : { type: 'addButton', row: draft.rows.length - 1 });
    expect(checkDraft(draft)).toMatchObject({ count: 12, max: 12, tooMany: false });
    const rows = draft.rows;
    expect(rows.length).toBeGreaterThan(1);
    expect(checkDraft({ ...draft, rows: [...rows, [{ ...rows[0]![0]!, id: 99 }]] })).toMatchObject({ count: 13, tooMany: true, valid: false });
  });

  it('sends inline rows of link and callback buttons, with nothing of the other type', () => {
    const draft = apply(
      draftOf('telegram_bot', [{ text: 'Track', type: 'link', url: 'https://shop.example/t', payload: 'left over' }]),
      { type: 'addRow' },
      { type: 'edit', id: 2, patch: { text: 'Call me', payload: 'call', url: 'https://left.example' } },
    );
    expect(checkDraft(draft).valid).toBe(true);
    expect(toKeyboard(draft)).toEqual({
      reply_markup: 'inline',
      buttons: [[{ text: 'Track', url: 'https://shop.example/t' }], [{ text: 'Call me', callback_data: 'call' }]],
    });
  });

  it('sends reply buttons as words only, with the options the agent turned on', () => {
    const draft = apply(draftOf('telegram_bot', [{ text: 'Yes', payload: '' }], 'reply'), { type: 'option', option: 'oneTime', on: true }, { type: 'option', option: 'fitted', on: true });
    expect(checkDraft(draft).buttons.get(1)).toEqual({ text: { measure: { count: 3, max: 64, unit: 'chars' }, problem: null } });
    expect(toKeyboard(draft)).toEqual({ reply_markup: 'reply', one_time_keyboard: true, resize_keyboard: true, buttons: [[{ text: 'Yes' }]] });
  });
});

describe('MAX-bot buttons', () => {
  it('takes text up to 128 characters', () => {
    expect(problemOf(draftOf('max_bot', [{ text: 'x'.repeat(128) }]), 'text')).toBeNull();
    expect(problemOf(draftOf('max_bot', [{ text: 'x'.repeat(129) }]), 'text')).toEqual({ code: 'tooLong', max: 128, unit: 'chars' });
  });

  it('requires a payload of up to 1024 characters on a callback button', () => {
    expect(problemOf(draftOf('max_bot', [{ payload: 'ж'.repeat(1024) }]), 'payload')).toBeNull();
    expect(problemOf(draftOf('max_bot', [{ payload: 'x'.repeat(1025) }]), 'payload')).toEqual({ code: 'tooLong', max: 1024, unit: 'chars' });
    expect(problemOf(draftOf('max_bot', [{ payload: '' }]), 'payload')).toEqual({ code: 'required' });
  });

  it('requires a web address of up to 2048 characters on a link button', () => {
    const link = (url: string) => problemOf(draftOf('max_bot', [{ type: 'link', url }]), 'url');
    expect(link(`https://shop.example/${'a'.repeat(2048 - 21)}`)).toBeNull();
    expect(link(`https://shop.example/${'a'.repeat(2048 - 20)}`)).toEqual({ code: 'tooLong', max: 2048, unit: 'chars' });
    expect(link('tg://resolve?domain=shop')).toEqual({ code: 'badUrl', protocols: ['http:', 'https:'] });
    expect(link('')).toEqual({ code: 'required' });
  });

  it('sends each type with its own fields, and an intent on callback buttons only', () => {
    const draft = draftOf('max_bot', [
      { text: 'Pay', type: 'callback', payload: 'pay', intent: 'positive', url: 'https://left.example' },
      { text: 'Site', type: 'link', url: 'https://shop.example', intent: 'negative' },
      { text: 'Hi', type: 'message', intent: 'positive' },
      { text: 'Plain', type: 'callback', payload: 'x', intent: 'default' },
    ]);
    expect(checkDraft(draft).buttons.get(3)).toEqual({ text: { measure: { count: 2, max: 128, unit: 'chars' }, problem: null } });
    expect(toKeyboard(draft)).toEqual({
      buttons: [
        [
          { type: 'callback', text: 'Pay', payload: 'pay', intent: 'positive' },
          { type: 'link', text: 'Site', url: 'https://shop.example' },
          { type: 'message', text: 'Hi' },
          { type: 'callback', text: 'Plain', payload: 'x' },
        ],
      ],
    });
  });

  it('has no limit on the number of buttons', () => {
    expect(checkDraft(draftOf('max_bot', many(40)))).toMatchObject({ count: 40, max: null, tooMany: false, valid: true });
  });
});

describe('every dialect', () => {
  it.each(['business', 'telegram_bot', 'max_bot'] as const)('%s: requires words on every button', (kind) => {
    expect(problemOf(draftOf(kind, [{ text: ' ' }]), 'text')).toEqual({ code: 'required' });
  });

  it('starts with one blank button, which is not yet valid; a keyboard without buttons is empty', () => {
    const draft = newDraft('telegram_bot');
    expect(checkDraft(draft)).toMatchObject({ count: 1, problems: 2, valid: false });
    const none = apply(draft, { type: 'remove', id: 1 });
    expect(none.rows).toEqual([]);
    expect(checkDraft(none)).toMatchObject({ empty: true, valid: false });
    expect(apply(none, { type: 'addButton', row: 0 }).rows.map((r) => r.map((b) => b.id))).toEqual([[2]]);
  });

  it('removes a row with its last button, keeping the others in place', () => {
    const draft = apply(newDraft('max_bot'), { type: 'addRow' }, { type: 'addButton', row: 1 }, { type: 'addRow' });
    expect(draft.rows.map((r) => r.map((b) => b.id))).toEqual([[1], [2, 3], [4]]);
    expect(apply(draft, { type: 'remove', id: 1 }).rows.map((r) => r.map((b) => b.id))).toEqual([[2, 3], [4]]);
    expect(apply(draft, { type: 'remove', id: 3 }).rows.map((r) => r.map((b) => b.id))).toEqual([[1], [2], [4]]);
  });
});
