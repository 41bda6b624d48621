import { describe, expect, it } from 'vitest';
import type { Template } from '../../../../contract/templates.ts';
import { sendableTemplates, templateBody, templateButtons, templatePreview, valueCount, valuesComplete } from './template-form.ts';

const CHANNEL = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

const template = (over: Partial<Template> = {}): Template => ({
  id: '00000000-0000-4000-8000-0000000000aa',
  channel_id: CHANNEL,
  name: 'order_ready',
  language: 'en',
  category: 'UTILITY',
  status: 'APPROVED',
  components: [
    { type: 'header', text: 'Order {{1}}' },
    { type: 'body', text: 'Hello {{2}}, order {{1}} is ready.' },
    { type: 'footer', text: 'Acme' },
    { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Thanks' }, { type: 'url', text: 'Track', url: 'https://example.com/t' }] },
  ],
  updated_at: '2026-11-25T10:00:00.000Z',
  ...over,
});

describe('the template form', () => {
  it('offers only the channel’s approved templates, by name', () => {
    const list = [
      template({ name: 'zeta' }),
      template({ name: 'alpha', language: 'ru' }),
      template({ name: 'alpha', language: 'en' }),
      template({ name: 'pending', status: 'PENDING' }),
      template({ name: 'other_channel', channel_id: OTHER }),
    ];
    expect(sendableTemplates(list, CHANNEL).map((t) => `${t.name}/${t.language}`)).toEqual(['alpha/en', 'alpha/ru', 'zeta/en']);
  });

  it('counts the values of header and body, and shows a missing one as its {{n}}', () => {
    const t = template();
    expect(valueCount(t)).toBe(2);
    expect(templatePreview(t, ['A-17', ''])).toBe('Order A-17\n\nHello {{2}}, order A-17 is ready.\n\nAcme');
    expect(templatePreview(t, ['A-17', 'Alice'])).toBe('Order A-17\n\nHello Alice, order A-17 is ready.\n\nAcme');
  });

  it('is ready to send only when every value is given', () => {
    const t = template();
    expect(valuesComplete(t, ['A-17'])).toBe(false);
    expect(valuesComplete(t, ['A-17', '  '])).toBe(false);
    expect(valuesComplete(t, ['A-17', 'Alice'])).toBe(true);
    expect(valuesComplete(template({ components: [{ type: 'body', text: 'No values' }] }), [])).toBe(true);
  });

  it('shows the body unfilled in the list, and the buttons’ words', () => {
    expect(templateBody(template())).toBe('Hello {{2}}, order {{1}} is ready.');
    expect(templateButtons(template())).toEqual(['Thanks', 'Track']);
  });
});
