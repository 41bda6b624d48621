import { describe, expect, it } from 'vitest';
import { keyboardOf, toSendBody, v3FieldName } from './send-body.ts';

const base = { channelId: '6f1c2a43-8b7e-4d36-9a51-0c2d3e4f5a6b', chatType: 'whatsapp' as const, chatId: '79001112233' };

describe('the v3 send as the gateway send', () => {
  it('reads a template written as text: `@template: <guid> { [[v1]]; [[v2]] }`', () => {
    const body = toSendBody({ ...base, text: '@template: 6201005A-9A6F-486F-BDD5-E6CB86C76DDB { [[Anna]]; [[12:00]] }' }, false);
    expect(body.template).toEqual({ id: '6201005a-9a6f-486f-bdd5-e6cb86c76ddb', values: ['Anna', '12:00'] });
    expect(body.text).toBeUndefined();
  });

  it('takes templateId with its values and the quick replies\' payloads', () => {
    const body = toSendBody({ ...base, templateId: '6201005a-9a6f-486f-bdd5-e6cb86c76ddb', templateValues: ['x'], buttonsObject: { buttons: [{ payload: 'yes' }, { payload: 'no' }] } }, false);
    expect(body.template).toEqual({ id: '6201005a-9a6f-486f-bdd5-e6cb86c76ddb', values: ['x'], buttons: [{ payload: 'yes' }, { payload: 'no' }] });
    expect(body.keyboard).toBeUndefined();
  });

  it('drops crmUserId for a sidecar key, and names clearUnanswered as the counter reset', () => {
    expect(toSendBody({ ...base, text: 'a', crmUserId: 'u1', clearUnanswered: false }, true)).toMatchObject({ reset_unanswered: false });
    expect(toSendBody({ ...base, text: 'a', crmUserId: 'u1' }, true).crm_user_id).toBeUndefined();
    expect(toSendBody({ ...base, text: 'a', crmUserId: 'u1' }, false).crm_user_id).toBe('u1');
  });

  it('numbers WABA interactive buttons without a payload from 0', () => {
    expect(keyboardOf('business', { buttons: [{ text: 'Yes', type: 'text' }, { text: 'No', type: 'text', payload: 'n' }] })).toEqual({
      buttons: [{ text: 'Yes', type: 'text', payload: '0' }, { text: 'No', type: 'text', payload: 'n' }],
    });
  });

  it('names the gateway\'s fields as the v3 body does', () => {
    expect(v3FieldName('recipient.chat_id')).toBe('chatId');
    expect(v3FieldName('keyboard.buttons.0.1.callback_data')).toBe('buttonsObject.buttons.0.1.callbackData');
    expect(v3FieldName('quoted_message_id')).toBe('refMessageId');
    expect(v3FieldName('attachment.url')).toBe('contentUri');
  });
});
