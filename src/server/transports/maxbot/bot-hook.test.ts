import { describe, expect, it, vi } from 'vitest';
import type { MessageDeps } from '../../core/messages/ports.ts';
import type { PlatformOutcome } from '../../core/messages/inbound.ts';
import type { MaxMessage } from './bot-api.ts';
import type { PressAnswerer } from './bot-answers.ts';
import { answerOf, arrivingOf, editsOf, maxMessageId, maxUpdateHook, pressOf, PRESSED, type PressAnswer } from './bot-hook.ts';

const anna = { user_id: 4242, first_name: 'Anna', last_name: 'Kravets', username: 'anna_k', is_bot: false };
const inDialog = (body: MaxMessage['body'], extra: Partial<MaxMessage> = {}): MaxMessage => ({
  sender: anna,
  recipient: { chat_id: 7001, chat_type: 'dialog', user_id: 10002 },
  timestamp: 1,
  body,
  ...extra,
});

describe('messages of MAX updates, as the gateway records them', () => {
  it('reads a dialog by the customer’s user id and a group by its chat id', () => {
    expect(arrivingOf(inDialog({ mid: 'mid.1', text: 'Hi' }))).toEqual([
      { chatType: 'max', chatId: '4242', username: 'anna_k', name: 'Anna Kravets', phone: null, text: 'Hi', attachment: null, messengerMessageId: 'mid.1', direction: 'inbound' },
    ]);
    expect(arrivingOf(inDialog({ mid: 'mid.2', text: 'Look' }, { recipient: { chat_id: -72000555, chat_type: 'chat', user_id: null } }))).toMatchObject([
      { chatType: 'maxgroup', chatId: '-72000555', username: null, text: 'Look' },
    ]);
    // A sender known by the deprecated `name` only.
    expect(arrivingOf(inDialog({ mid: 'mid.3', text: 'x' }, { sender: { user_id: 9, name: 'Boris' } }))).toMatchObject([{ name: 'Boris', username: null }]);
  });

  it('makes each file a message and the words another, numbered within the MAX message', () => {
    const message = inDialog({
      mid: 'mid.9',
      text: 'Чек и договор',
      attachments: [
        { type: 'image', payload: { photo_id: 1, url: 'https://i.oneme.ru/i?r=a', token: 't' } },
        { type: 'inline_keyboard', payload: {} },
        { type: 'file', payload: { url: 'https://fd.oneme.ru/getfile?sig=s&id=2', token: 't' }, filename: 'offer.pdf', size: 10 },
      ],
    });
    expect(arrivingOf(message)).toMatchObject([
      { text: null, attachment: { url: 'https://i.oneme.ru/i?r=a' }, messengerMessageId: 'mid.9' },
      { text: null, attachment: { url: 'https://fd.oneme.ru/getfile?sig=s&id=2', name: 'offer.pdf', mimetype: 'application/pdf', size: 10 }, messengerMessageId: 'mid.9:1' },
      { text: 'Чек и договор', attachment: null, messengerMessageId: 'mid.9:caption' },
    ]);
    expect(['mid.9', 'mid.9:1', 'mid.9:caption'].map(maxMessageId)).toEqual(['mid.9', 'mid.9', 'mid.9']);
  });

  it('records a video, the customer’s own or forwarded, by the link `videoLink` makes of its token; without one by MAX’s address', () => {
    const film = (token: string) => ({ type: 'video', payload: { url: `https://max.ru/watch/${token}`, token } });
    const message = inDialog({ mid: 'mid.v', text: null, attachments: [film('v1')] }, { link: { type: 'forward', message: { mid: 'mid.f', attachments: [film('v2')] } } });
    expect(arrivingOf(message, (token) => `https://gw.example/files/${token}`)).toMatchObject([
      { attachment: { url: 'https://gw.example/files/v1', mimetype: 'video/mp4' }, messengerMessageId: 'mid.v' },
      { attachment: { url: 'https://gw.example/files/v2', mimetype: 'video/mp4' }, messengerMessageId: 'mid.v:fwd:0' },
    ]);
    expect(arrivingOf(message).map((m) => m.attachment)).toEqual([{ url: 'https://max.ru/watch/v1' }, { url: 'https://max.ru/watch/v2' }]);
  });

  it('drops what it cannot read, whatever its shape, instead of failing on it', () => {
    const odd = [
      undefined,
      null,
      'text',
      { body: { mid: 'mid.1', text: 'no sender' }, recipient: { chat_id: 1, chat_type: 'dialog' } },
      { sender: anna, body: { mid: 'mid.1', text: 'no recipient' } },
      { sender: anna, recipient: { chat_id: 1, chat_type: 'dialog' }, body: { text: 'no mid' } },
      { sender: anna, recipient: { chat_id: 1, chat_type: 'dialog' }, body: { mid: 1, text: 'mid as a number' } },
      { sender: { ...anna, user_id: '4242' }, recipient: { chat_id: 1, chat_type: 'dialog' }, body: { mid: 'mid.1', text: 'id as text' } },
      { sender: { ...anna, is_bot: true }, recipient: { chat_id: 1, chat_type: 'dialog' }, body: { mid: 'mid.1', text: 'a bot' } },
      { sender: anna, recipient: { chat_id: 1, chat_type: 'channel' }, body: { mid: 'mid.1', text: 'a channel post' } },
      { sender: anna, recipient: { chat_id: 'x', chat_type: 'chat' }, body: { mid: 'mid.1', text: 'a group without an id' } },
      { sender: anna, recipient: { chat_id: 1, chat_type: 'dialog' }, body: { mid: 'mid.1', text: 42 } },
      { sender: anna, recipient: { chat_id: 1, chat_type: 'dialog' }, body: { mid: 'mid.1', text: '', attachments: [{ type: 'sticker', payload: { url: 'https://i.oneme.ru/s' } }] } },
      { sender: anna, recipient: { chat_id: 1, chat_type: 'dialog' }, body: { mid: 'mid.1', attachments: 'not a list' } },
      { sender: anna, recipient: { chat_id: 1, chat_type: 'dialog' }, body: { mid: 'mid.1', attachments: [null, { type: 'file', payload: { url: 'javascript:alert(1)' } }] } },
    ];
    for (const message of odd) expect(arrivingOf(message as unknown as MaxMessage), JSON.stringify(message)).toEqual([]);
  });
});

describe('replies and forwards', () => {
  it('quotes the message a reply answers', () => {
    const reply = inDialog({ mid: 'mid.r', text: 'Да, этот' }, { link: { type: 'reply', message: { mid: 'mid.asked', text: 'Этот заказ?' } } });
    expect(arrivingOf(reply)).toMatchObject([{ text: 'Да, этот', messengerMessageId: 'mid.r', quotedMessengerId: 'mid.asked' }]);
    // A reply to a message whose id is not given quotes nothing.
    expect(arrivingOf(inDialog({ mid: 'mid.r2', text: 'x' }, { link: { type: 'reply', message: null } }))[0]).not.toHaveProperty('quotedMessengerId');
  });

  it('records what a forward carries: as the message itself where it says nothing (even with no body), after its own words where it does', () => {
    const forwarded = { mid: 'mid.orig', text: 'Пересланный текст', attachments: [{ type: 'file', payload: { url: 'https://fd.oneme.ru/getfile?sig=f' }, filename: 'a.pdf', size: 3 }] };
    const bare = { ...inDialog(null), timestamp: 1_795_000_000_123, link: { type: 'forward', message: forwarded } };
    expect(arrivingOf(bare)).toMatchObject([
      { text: null, attachment: { url: 'https://fd.oneme.ru/getfile?sig=f', name: 'a.pdf' }, messengerMessageId: 'mid.orig:fwd1795000000123' },
      { text: 'Пересланный текст', attachment: null, messengerMessageId: 'mid.orig:fwd1795000000123:caption' },
    ]);
    expect(arrivingOf(inDialog({ mid: 'mid.empty', text: '' }, { link: { type: 'forward', message: forwarded } }))).toMatchObject([
      { messengerMessageId: 'mid.empty' },
      { text: 'Пересланный текст', messengerMessageId: 'mid.empty:caption' },
    ]);
    expect(arrivingOf(inDialog({ mid: 'mid.c', text: 'Смотрите' }, { link: { type: 'forward', message: forwarded } }))).toMatchObject([
      { text: 'Смотрите', messengerMessageId: 'mid.c' },
      { attachment: { name: 'a.pdf' }, messengerMessageId: 'mid.c:fwd:0' },
      { text: 'Пересланный текст', messengerMessageId: 'mid.c:fwd:caption' },
    ]);
    expect(['mid.orig:fwd1795000000123:caption', 'mid.c:fwd:0'].map(maxMessageId)).toEqual(['mid.orig', 'mid.c']);
    // Neither a body nor a forwarded message: nothing.
    expect(arrivingOf({ ...inDialog(null), link: { type: 'forward', message: null } })).toEqual([]);
  });
});

describe('customers’ edits', () => {
  it('changes the words where the gateway recorded them: `<mid>` without files, `<mid>:caption` with them (`<mid>:text` before)', () => {
    expect(editsOf(inDialog({ mid: 'mid.e', text: 'Где мой заказ №42?' }))).toEqual([
      { chatType: 'max', chatId: '4242', messengerMessageId: 'mid.e', text: 'Где мой заказ №42?' },
      { chatType: 'max', chatId: '4242', messengerMessageId: 'mid.e:caption', text: 'Где мой заказ №42?' },
      { chatType: 'max', chatId: '4242', messengerMessageId: 'mid.e:text', text: 'Где мой заказ №42?' },
    ]);
    const group = { recipient: { chat_id: -72000555, chat_type: 'chat' as const, user_id: null } };
    const inGroup = { chatType: 'maxgroup', chatId: '-72000555' };
    expect(editsOf(inDialog({ mid: 'mid.g', text: 'Всем' }, group))).toMatchObject([inGroup, inGroup, inGroup]);
  });

  it('reports no file: MAX’s signed addresses change from update to update, so an unchanged file would look replaced', () => {
    const withFile = inDialog({ mid: 'mid.f', text: 'Чек', attachments: [{ type: 'file', payload: { url: 'https://fd.oneme.ru/getfile?sig=new&expires=2' }, filename: 'a.pdf', size: 1 }] });
    expect(editsOf(withFile).map((e) => [e.messengerMessageId, e.text, e.attachment])).toEqual([
      ['mid.f', 'Чек', undefined],
      ['mid.f:caption', 'Чек', undefined],
      ['mid.f:text', 'Чек', undefined],
    ]);
  });

  const pdf = [{ type: 'file', payload: { url: 'https://fd.oneme.ru/getfile?sig=s' }, filename: 'a.pdf', size: 1 }];

  it('leaves the words empty where they were taken away from a message that keeps its files, as Telegram does a caption', () => {
    for (const text of ['', null, undefined]) {
      expect(editsOf(inDialog({ mid: 'mid.f', text, attachments: pdf }))).toEqual([
        { chatType: 'max', chatId: '4242', messengerMessageId: 'mid.f', text: '' },
        { chatType: 'max', chatId: '4242', messengerMessageId: 'mid.f:caption', text: '' },
        { chatType: 'max', chatId: '4242', messengerMessageId: 'mid.f:text', text: '' },
      ]);
    }
    // Neither words nor a file read (a sticker's message): nothing.
    expect(editsOf(inDialog({ mid: 'mid.s', text: '', attachments: [{ type: 'sticker', payload: { url: 'https://i.oneme.ru/s' } }] }))).toEqual([]);
  });

  it('makes words given to a message of files alone arrive as its `<mid>:caption`', () => {
    const [, words] = editsOf(inDialog({ mid: 'mid.f', text: 'Подписан', attachments: pdf }, { link: { type: 'reply', message: { mid: 'mid.asked' } } }));
    expect(words).toEqual({
      chatType: 'max',
      chatId: '4242',
      messengerMessageId: 'mid.f:caption',
      text: 'Подписан',
      added: { partOf: 'mid.f', arriving: expect.objectContaining({ messengerMessageId: 'mid.f:caption', text: 'Подписан', direction: 'inbound', quotedMessengerId: 'mid.asked' }) },
    });
    // Without files the words are the message itself: nothing arrives.
    expect(editsOf(inDialog({ mid: 'mid.t', text: 'x' })).some((e) => e.added)).toBe(false);
  });

  it('says when MAX made the edit (the update’s time, ms), so that an older edit sent again changes nothing', () => {
    expect(editsOf(inDialog({ mid: 'mid.e', text: 'x' }), 1_795_000_000_123).map((e) => e.editedAt)).toEqual(Array(3).fill(new Date(1_795_000_000_123)));
    for (const odd of [undefined, null, '1795000000123', 1.5, -1, 0]) expect(editsOf(inDialog({ mid: 'mid.e', text: 'x' }), odd)[0]).not.toHaveProperty('editedAt');
  });

  it('drops edits it cannot read, and other bots’ edits', () => {
    for (const message of [undefined, null, inDialog({ mid: '', text: 'x' }), inDialog({ mid: 'mid.1', text: 'x' }, { sender: { user_id: 1, is_bot: true } }), inDialog(null)]) {
      expect(editsOf(message), JSON.stringify(message)).toEqual([]);
    }
  });
});

describe('button presses', () => {
  const bot = { user_id: 10002, first_name: 'Acme Shop', is_bot: true };
  const keyboard = {
    type: 'inline_keyboard',
    callback_id: 'kb-1',
    payload: {
      buttons: [
        [
          { type: 'callback', text: 'Да', payload: 'order:yes', intent: 'positive' },
          { type: 'callback', text: 'Нет', payload: 'order:no', intent: 'negative' },
        ],
        [{ type: 'link', text: 'Сайт', url: 'https://example.com' }],
      ],
    },
  };
  /** A press as MAX posts it (captured, Feb 2026). */
  const pressed = (payload: unknown, message: Record<string, unknown> | null = {}, user: Record<string, unknown> = { user_id: 4242, first_name: 'Anna', last_name: 'Kravets', is_bot: false, name: 'Anna Kravets' }) => ({
    update_type: 'message_callback',
    timestamp: 1,
    callback: { timestamp: 1, callback_id: 'f9LHodD0cOKBYa4zx', payload, user },
    message:
      message === null
        ? null
        : { recipient: { chat_id: 7001, chat_type: 'dialog', user_id: 4242 }, sender: bot, timestamp: 1, body: { mid: 'mid.offer', seq: 1, text: 'Подтвердить заказ?', attachments: [keyboard] }, ...message },
    user_locale: 'ru',
  });

  it('records the pressed button’s text from the presser, in the dialog, quoting the message the button is on', () => {
    expect(pressOf(pressed('order:no') as never)).toEqual({
      chatType: 'max',
      chatId: '4242',
      username: null,
      name: 'Anna Kravets',
      direction: 'inbound',
      phone: null,
      text: 'Нет',
      attachment: null,
      messengerMessageId: 'cb:f9LHodD0cOKBYa4zx',
      quotedMessengerId: 'mid.offer',
    });
    expect(answerOf(pressed('order:no') as never)).toEqual({ callbackId: 'f9LHodD0cOKBYa4zx', chatId: '4242', notification: 'Нет' });
  });

  it('records a press in a group in the group’s chat, and the payload itself when no button has it; it shows the customer a mark then, not the payload', () => {
    const group = { recipient: { chat_id: -72000555, chat_type: 'chat', user_id: null } };
    expect(pressOf(pressed('order:yes', group) as never)).toMatchObject({ chatType: 'maxgroup', chatId: '-72000555', name: null, text: 'Да' });
    expect(answerOf(pressed('order:yes', group) as never)).toEqual({ callbackId: 'f9LHodD0cOKBYa4zx', chatId: '-72000555', notification: 'Да' });
    expect(pressOf(pressed('order:later') as never)).toMatchObject({ text: 'order:later' });
    expect(answerOf(pressed('order:later') as never)).toMatchObject({ notification: PRESSED });
    // A message without its keyboard (edited since): the payload, and the mark.
    const bare = pressed('order:yes', { body: { mid: 'mid.offer', text: 'Подтвердить заказ?', attachments: null } });
    expect(pressOf(bare as never)).toMatchObject({ text: 'order:yes', quotedMessengerId: 'mid.offer' });
    expect(answerOf(bare as never)).toMatchObject({ notification: PRESSED });
  });

  it('answers a press it does not record, where there is a callback id: by the bot’s pace alone when the chat is not read', () => {
    expect(answerOf(pressed('order:yes', null) as never)).toEqual({ callbackId: 'f9LHodD0cOKBYa4zx', chatId: null, notification: PRESSED });
    expect(answerOf(pressed('order:yes', { recipient: { chat_id: -1, chat_type: 'channel' } }) as never)).toEqual({ callbackId: 'f9LHodD0cOKBYa4zx', chatId: null, notification: 'Да' });
    expect(answerOf(pressed('order:yes', {}, { user_id: 1, is_bot: true }) as never)).toMatchObject({ chatId: '1', notification: 'Да' });
    expect(answerOf(pressed('order:yes', {}, { user_id: '4242' }) as never)).toMatchObject({ chatId: null, notification: 'Да' });
    expect(answerOf(pressed(undefined) as never)).toMatchObject({ notification: PRESSED });
    for (const update of [null, { update_type: 'message_callback' }, { ...pressed('order:yes'), callback: { ...pressed('order:yes').callback, callback_id: '' } }, { ...pressed('order:yes'), callback: { callback_id: 7 } }]) {
      expect(answerOf(update as never), JSON.stringify(update)).toBeNull();
    }
  });

  it('drops presses it cannot place or read', () => {
    const odd = [
      null,
      { update_type: 'message_callback', callback: { callback_id: 'c', payload: 'p' } },
      pressed('order:yes', null),
      pressed(undefined),
      pressed(''),
      pressed(42),
      pressed('order:yes', {}, { user_id: 1, is_bot: true }),
      pressed('order:yes', {}, { user_id: '4242' }),
      pressed('order:yes', { recipient: { chat_id: -1, chat_type: 'channel' } }),
      { ...pressed('order:yes'), callback: { ...pressed('order:yes').callback, callback_id: '' } },
    ];
    for (const update of odd) expect(pressOf(update as never), JSON.stringify(update)).toBeNull();
  });
});

describe('the hook’s answers to presses', () => {
  const SECRET = 'the-channel-secret';
  const headers = { 'x-max-bot-api-secret': SECRET };
  const keyboard = { type: 'inline_keyboard', payload: { buttons: [[{ type: 'callback', text: 'Да', payload: 'order:yes' }]] } };
  const pressUpdate = (message: Record<string, unknown> | null = { recipient: { chat_id: 7001, chat_type: 'dialog', user_id: 10002 }, sender: { user_id: 10002, is_bot: true }, timestamp: 1, body: { mid: 'mid.offer', text: '?', attachments: [keyboard] } }) => ({
    update_type: 'message_callback',
    timestamp: 1,
    callback: { timestamp: 1, callback_id: 'cb-1', payload: 'order:yes', user: { user_id: 4242, first_name: 'Anna', is_bot: false } },
    message,
  });
  /**
   * The hook over a store that records nothing itself: `recorded` is whether recording the press took (false: the
   * channel did not take it), `status` the channel's as found then. Each step is logged in order.
   */
  function hookWith(recorded: boolean, status: 'active' | 'disabled' | null) {
    const log: string[] = [];
    const messages = {
      store: {
        transaction: async (): Promise<PlatformOutcome> => {
          log.push('recorded');
          return recorded ? 'recorded' : status === 'disabled' ? 'switched_off' : 'not_yet';
        },
      },
    } as unknown as MessageDeps;
    let answeredWith: (answer: PressAnswer) => void = () => {};
    const answered = new Promise<PressAnswer>((resolve) => (answeredWith = resolve));
    let finish: () => void = () => {};
    // An answer still under way long after the update's 200.
    const held = new Promise<void>((resolve) => (finish = resolve));
    const answers: PressAnswerer = async (_channelId, answer) => {
      log.push(`answered ${answer.callbackId}`);
      answeredWith(answer);
      await held;
    };
    const update = maxUpdateHook({ messages, hookSecret: () => SECRET, answers });
    return { log, update, answered, finish: () => finish() };
  }

  it('answers a press once it is recorded, in the background: the hook does not wait for the answer', async () => {
    const { log, update, answered, finish } = hookWith(true, 'active');
    expect(await update({ channelId: 'c1', headers, body: pressUpdate() })).toBe('accepted');
    // The hook is done while the answer has not even started: it starts once the update's answer is on its way.
    expect(log).toEqual(['recorded']);
    expect(await answered).toEqual({ callbackId: 'cb-1', chatId: '4242', notification: 'Да' });
    expect(log).toEqual(['recorded', 'answered cb-1']);
    finish();
  });

  it('answers nothing while the channel cannot take the press (MAX sends it again)', async () => {
    const { log, update } = hookWith(false, null);
    expect(await update({ channelId: 'c1', headers, body: pressUpdate() })).toBe('unavailable');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['recorded']);
  });

  it('answers a press it drops: on a message deleted since, unread, or while the channel is off', async () => {
    const deleted = hookWith(true, 'active');
    expect(await deleted.update({ channelId: 'c1', headers, body: pressUpdate(null) })).toBe('ignored');
    expect(await deleted.answered).toEqual({ callbackId: 'cb-1', chatId: null, notification: PRESSED });
    // Nothing was recorded: there was nothing to record.
    expect(deleted.log).toEqual(['answered cb-1']);

    const off = hookWith(false, 'disabled');
    expect(await off.update({ channelId: 'c1', headers, body: pressUpdate() })).toBe('ignored');
    // Handed to the answerer, which answers only for an active channel.
    expect(await off.answered).toMatchObject({ callbackId: 'cb-1' });
  });

  it('answers nothing without the channel’s secret, and a hook without an answerer records all the same', async () => {
    const { log, update } = hookWith(true, 'active');
    expect(await update({ channelId: 'c1', headers: { 'x-max-bot-api-secret': 'wrong' }, body: pressUpdate() })).toBe('unauthorized');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual([]);
    const transaction = vi.fn(async (): Promise<PlatformOutcome> => 'recorded');
    const bare = maxUpdateHook({ messages: { store: { transaction } } as unknown as MessageDeps, hookSecret: () => SECRET });
    expect(await bare({ channelId: 'c1', headers, body: pressUpdate() })).toBe('accepted');
    expect(transaction).toHaveBeenCalledOnce();
  });
});
