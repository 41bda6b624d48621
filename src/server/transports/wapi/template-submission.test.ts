import { describe, expect, it } from 'vitest';
import type { AppError } from '../../core/errors.ts';
import { GraphApiError, GraphApiUnreachable } from '../meta/graph-api.ts';
import { templateRefusal } from './template-refusals.ts';
import { metaComponents } from './template-submission.ts';

const refusal = (status: number, code: number, subcode: number | null = null, userMessage: string | null = null) =>
  new GraphApiError(status, { message: `(#${code}) refused`, code, subcode, transient: false, userMessage });

describe('templates as Meta takes them', () => {
  it('numbers the body’s variables from {{1}} again after a header’s, and hands each part’s example on', () => {
    expect(
      metaComponents({
        name: 'order',
        language: 'en',
        category: 'UTILITY',
        components: [
          { type: 'header', text: 'Order {{1}}' },
          { type: 'body', text: 'Hi {{2}}, {{3}} and {{2}} again' },
          { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Yes' }, { type: 'phone_number', text: 'Call', phone_number: '+15550100001' }] },
        ],
        examples: { body: { body_text: [['Anna', 'today']] } },
      }),
    ).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, {{2}} and {{1}} again', example: { body_text: [['Anna', 'today']] } },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }, { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550100001' }] },
    ]);
  });

  it('answers Meta’s refusals as the API’s errors, switching the channel off for a token Meta no longer takes', async () => {
    let revoked = 0;
    const revoke = async () => void revoked++;
    const code = async (err: unknown) => ((await templateRefusal(err, revoke)) as AppError).code;
    expect(await code(new GraphApiUnreachable('down'))).toBe('SERVICE_UNAVAILABLE');
    expect(await code(refusal(500, 2))).toBe('SERVICE_UNAVAILABLE');
    expect(await code(refusal(400, 80007))).toBe('TOO_MANY_REQUESTS');
    expect(await code(refusal(403, 200))).toBe('FORBIDDEN');
    expect(revoked).toBe(0);
    expect(await code(refusal(401, 190))).toBe('CHANNEL_WRONG_STATUS');
    expect(revoked).toBe(1);
    expect(((await templateRefusal(refusal(400, 100, 2388024), revoke)) as AppError).data).toEqual({ fields: [{ field: 'template.title', message: expect.stringContaining('already') }] });
    expect(((await templateRefusal(refusal(400, 100, 2388001, 'Too long: shorten the body'), revoke)) as AppError).data).toEqual({
      fields: [{ field: 'template', message: 'Meta refused the template: Too long: shorten the body' }],
    });
    const other = new Error('not Meta’s');
    expect(await templateRefusal(other, revoke)).toBe(other);
  });
});
