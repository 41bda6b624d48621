import { describe, expect, it } from 'vitest';
import { GraphApiError } from '../meta/graph-api.ts';
import { failureOf, statusFailureOf, waitAsked } from './cloud-failures.ts';
import { tierOf, phoneDigits } from './number-profile.ts';
import { contentOf, interactiveOf, mediaKindOf, templateComponentsOf } from './outbound.ts';
import { CHOICE_LIFETIME_MS, checkState, choiceState, newState, nonceOf, STATE_LIFETIME_MS } from '../meta/login-state.ts';
import { accountTemplates, MAX_PAGES, presentOf, templateOf, templateStatusOf } from './templates.ts';
import { reportsOfChange } from './webhook-events.ts';

const refusal = (code: number, message = 'refused', status = 400, retryAfterMs: number | null = null) => new GraphApiError(status, { message, code, subcode: null, transient: false }, retryAfterMs);

describe('Meta’s refusals of a WhatsApp send', () => {
  it.each([
    [131047, 'over_24_hour_limit'],
    [131042, 'wapi_not_enough_money'],
    [130472, 'waba_rejected_by_experiment'],
    [131049, 'waba_limit_marketing_template_sending'],
    [131050, 'stop_receiving_marketing_messages'],
    [131031, 'waba_business_account_locked'],
    [131048, 'is_spam'],
    [368, 'is_spam'],
    [131026, 'waba_message_undeliverable'],
    [131030, 'bad_contact'],
    [131053, 'can_not_get_content'],
    [190, 'session_revoked'],
    [10, 'no_user_permissions'],
    [132001, 'bad_required_parameter'],
    [99999, 'unknown_error'],
  ])('%i is %s', (code, reason) => {
    expect(failureOf(refusal(code))).toBe(reason);
  });

  it('tries rate limits and Meta’s own failures again, after the wait Meta asks for or one of its own', () => {
    for (const code of [4, 80007, 130429, 131056, 131000, 1, 2]) expect(failureOf(refusal(code))).toBeNull();
    expect(failureOf(refusal(100, 'x', 503))).toBeNull();
    expect(waitAsked(refusal(130429, 'x', 429, 30_000))).toBe(30_000);
    expect(waitAsked(refusal(131056))).toBe(6_000);
    expect(waitAsked(refusal(80007))).toBe(60_000);
    expect(waitAsked(refusal(131000))).toBeNull();
  });

  it('reads a failed status’s first error, and a messaging limit by its words', () => {
    expect(statusFailureOf([{ code: 131047, title: 'Re-engagement message' }])).toBe('over_24_hour_limit');
    expect(statusFailureOf([{ code: 130429, title: 'Rate limit hit' }])).toBe('to_many_requests');
    expect(statusFailureOf([{ code: 131000, title: 'Something went wrong' }])).toBe('network_error');
    expect(statusFailureOf([{ code: 131999, title: 'Messaging limit reached for this number' }])).toBe('message_limit_exceeded');
    expect(statusFailureOf(undefined)).toBe('unknown_error');
  });
});

describe('tiers and numbers', () => {
  it('are the interface’s, never promising more than Meta allows', () => {
    expect(['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'].map(tierOf)).toEqual(['TIER_50', 'TIER_250', 'TIER_1K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED']);
    expect(tierOf('TIER_2K')).toBe('TIER_1K');
    expect(tierOf('TIER_NOT_SET')).toBeNull();
    expect(phoneDigits('+1 555-010-0001')).toBe('15550100001');
    expect(phoneDigits('n/a')).toBeNull();
  });
});

describe('the state of Meta’s login dialog', () => {
  const key = Buffer.alloc(32, 7);
  const at = new Date(Date.UTC(2030, 0, 1));
  it('names its channel while it lasts, and is refused forged or expired', () => {
    const state = newState(key, 'c0ffee00-0000-4000-8000-000000000001', at);
    expect(checkState(key, state, at)).toEqual({ ok: true, channelId: 'c0ffee00-0000-4000-8000-000000000001', nonce: state.split('.')[2], chosen: null });
    expect(checkState(key, state, new Date(at.getTime() + STATE_LIFETIME_MS + 1000))).toEqual({ ok: false, why: 'expired' });
    expect(checkState(Buffer.alloc(32, 8), state, at)).toEqual({ ok: false, why: 'forged' });
    expect(checkState(key, state.replace(/^c0/, 'd0'), at)).toEqual({ ok: false, why: 'forged' });
    expect(newState(key, 'c', at)).not.toBe(newState(key, 'c', at));
  });

  it('names a number chosen, under the nonce of the address it came from, for a shorter while', () => {
    const nonce = nonceOf(`https://www.facebook.com/v24.0/dialog/oauth?state=${newState(key, 'c1', at)}`)!;
    const chosen = choiceState(key, 'c1', nonce, '110200345501442', at);
    expect(checkState(key, chosen, at)).toEqual({ ok: true, channelId: 'c1', nonce, chosen: '110200345501442' });
    expect(checkState(key, chosen, new Date(at.getTime() + CHOICE_LIFETIME_MS + 1000))).toEqual({ ok: false, why: 'expired' });
    // Another number put in its place breaks the signature.
    expect(checkState(key, chosen.replace('110200345501442', '110200345501443'), at)).toEqual({ ok: false, why: 'forged' });
  });
});

describe('what a send asks of Meta', () => {
  it('shows files by their type, anything else as a document under its name', () => {
    expect(mediaKindOf({ url: 'https://x.example/a.JPG' })).toBe('image');
    expect(mediaKindOf({ url: 'https://x.example/a.webp' })).toBe('document');
    expect(mediaKindOf({ url: 'https://x.example/v', mimetype: 'video/mp4' })).toBe('video');
    expect(mediaKindOf({ url: 'https://x.example/voice.ogg' })).toBe('audio');
    expect(contentOf({ text: null, attachment: { url: 'https://x.example/f?id=1', name: 'Счёт.xlsx' }, keyboard: null, template: null })).toEqual({ type: 'document', document: { link: 'https://x.example/f?id=1', filename: 'Счёт.xlsx' } });
  });

  it('gives a file’s words as its caption, but for a sound, which Meta shows without one', () => {
    const photo = { url: 'https://x.example/sofa.jpg', mimetype: 'image/jpeg' };
    expect(contentOf({ text: 'our sofa', attachment: photo, keyboard: null, template: null })).toEqual({ type: 'image', image: { link: photo.url, caption: 'our sofa' } });
    const note = { url: 'https://x.example/n.ogg', mimetype: 'audio/ogg' };
    expect(contentOf({ text: 'listen', attachment: note, keyboard: null, template: null })).toEqual({ type: 'audio', audio: { link: note.url } });
  });

  it('sends up to 3 buttons as reply buttons, more as a list, a button without text by its payload', () => {
    expect(interactiveOf('Hi', { buttons: [{ payload: 'yes' }] })).toEqual({ type: 'button', body: { text: 'Hi' }, action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'yes' } }] } });
    const list = interactiveOf('Hi', { buttons: Array.from({ length: 4 }, (_, i) => ({ text: `Option ${i}`, payload: `p${i}` })) }) as { type: string; action: { sections: { rows: unknown[] }[] } };
    expect(list.type).toBe('list');
    expect(list.action.sections[0]!.rows[3]).toEqual({ id: 'p3', title: 'Option 3' });
  });

  it('fills each part of a template with the values of its own variables, and binds payloads to quick replies by their place', () => {
    const components = [
      { type: 'header' as const, text: 'Order {{1}}' },
      { type: 'body' as const, text: '{{3}} and {{2}}' },
      { type: 'buttons' as const, buttons: [{ type: 'quick_reply' as const, text: 'A' }, { type: 'url' as const, text: 'B', url: 'https://x.example' }, { type: 'quick_reply' as const, text: 'C' }] },
    ];
    expect(templateComponentsOf({ name: 't', language: 'en', components, values: ['1', 'two', 'three'], payloads: ['pa', 'pc'] })).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: '1' }] },
      { type: 'body', parameters: [{ type: 'text', text: 'two' }, { type: 'text', text: 'three' }] },
      { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'pa' }] },
      { type: 'button', sub_type: 'quick_reply', index: '2', parameters: [{ type: 'payload', payload: 'pc' }] },
    ]);
  });
});

describe('Meta’s templates as the interface lists them', () => {
  it('numbers the body’s variables after the header’s, and leaves out what a send could not fill', () => {
    const found = templateOf({ name: 'x', language: 'en', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' }, { type: 'BODY', text: 'A {{1}} B {{2}}' }, { type: 'FOOTER', text: 'f' }] });
    expect(found?.components).toEqual([{ type: 'header', text: 'Hi {{1}}' }, { type: 'body', text: 'A {{2}} B {{3}}' }, { type: 'footer', text: 'f' }]);
    expect(templateOf({ name: 'x', language: 'en', status: 'APPROVED', category: 'UTILITY', parameter_format: 'NAMED', components: [{ type: 'BODY', text: 'A {{name}}' }] })).toBeNull();
    expect(templateOf({ name: 'x', language: 'en', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'A' }, { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: 'https://x.example/{{1}}' }] }] })).toBeNull();
    expect(templateOf({ name: 'x', language: 'en', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', text: 'c' }] }, { type: 'BODY', text: 'A' }] })).toBeNull();
    expect(['IN_APPEAL', 'REINSTATED', 'ARCHIVED', 'PENDING_DELETION', 'DELETED', 'FLAGGED'].map(templateStatusOf)).toEqual(['PENDING', 'APPROVED', 'DISABLED', 'deleted', 'deleted', null]);
    // Deleted in WhatsApp Manager but still listed a while: not offered.
    expect(templateOf({ name: 'x', language: 'en', status: 'PENDING_DELETION', category: 'UTILITY', components: [{ type: 'BODY', text: 'A' }] })).toBeNull();
  });

  it('knows a template Meta still has though the interface cannot carry it, and not one Meta deleted', () => {
    const pictured = { name: 'x', language: 'en', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'A' }] };
    expect(templateOf(pictured)).toBeNull();
    expect(presentOf(pictured)).toEqual({ name: 'x', language: 'en' });
    expect(presentOf({ ...pictured, status: 'SOMETHING_NEW' })).toEqual({ name: 'x', language: 'en' });
    expect(presentOf({ ...pictured, status: 'PENDING_DELETION' })).toBeNull();
    expect(presentOf({ ...pictured, status: 'DELETED' })).toBeNull();
  });
});

describe('an account’s templates, page after page', () => {
  const body = { name: 'x', language: 'en', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'A' }] };
  /** A Graph API whose account has `pages` pages of one template each. */
  const account = (pages: number) => {
    let asked = 0;
    return {
      asked: () => asked,
      api: {
        call: async <T>() => {
          asked++;
          const more = asked < pages;
          return { data: [{ ...body, name: `t${asked}` }], paging: { cursors: { after: String(asked) }, ...(more ? { next: 'https://graph.example/next' } : {}) } } as T;
        },
      },
    };
  };
  it('is complete once Meta gives no next page, and not when pages are left unread', async () => {
    const small = account(3);
    expect(await accountTemplates(small.api, '1')).toMatchObject({ complete: true, listed: [{ name: 't1' }, { name: 't2' }, { name: 't3' }], present: [{ name: 't1' }, { name: 't2' }, { name: 't3' }] });
    const huge = account(MAX_PAGES + 5);
    const read = await accountTemplates(huge.api, '1');
    expect(read.complete).toBe(false);
    expect(read.listed).toHaveLength(MAX_PAGES);
    expect(huge.asked()).toBe(MAX_PAGES);
  });
});

describe('a messages change', () => {
  const link = (id: string) => `https://gw.example/files/${id}`;
  it('reads texts, files with captions, presses and statuses; leaves out what it cannot record', () => {
    const reports = reportsOfChange(
      {
        metadata: { phone_number_id: '1' },
        contacts: [{ wa_id: '79001234567', profile: { name: 'Anna' } }],
        messages: [
          { from: '79001234567', id: 'wamid.A', type: 'document', document: { id: '55', mime_type: 'application/pdf', filename: 'a.pdf', caption: 'see' } },
          { from: '79001234567', id: 'wamid.B', type: 'button', context: { id: 'wamid.T' }, button: { text: 'Yes', payload: 'y' } },
          { from: '79001234567', id: 'wamid.C', type: 'location', location: { latitude: 1, longitude: 2 } },
          { from: '79001234567', id: 'wamid:D', type: 'text', text: { body: 'bad id' } },
        ],
        statuses: [
          { id: 'wamid.S', status: 'sent', recipient_id: '79001234567' },
          { id: 'wamid.S', status: 'failed', recipient_id: '79001234567', errors: [{ code: 131047 }] },
        ],
      },
      link,
    );
    expect(reports).toEqual([
      { kind: 'message', message: expect.objectContaining({ messengerMessageId: 'wamid.A', attachment: { url: link('55'), name: 'a.pdf', mimetype: 'application/pdf' }, name: 'Anna' }) },
      { kind: 'message', message: expect.objectContaining({ messengerMessageId: 'wamid.A:text', text: 'see' }) },
      { kind: 'message', message: expect.objectContaining({ messengerMessageId: 'wamid.B', text: 'Yes', quotedMessengerId: 'wamid.T' }) },
      { kind: 'status', status: { chatType: 'whatsapp', chatId: '79001234567', messengerMessageId: 'wamid.S', status: 'failed', reason: 'over_24_hour_limit' } },
    ]);
  });
});
