import { describe, expect, it } from 'vitest';
import { fieldErrors } from './errors.ts';

describe('schema failures as data.fields', () => {
  it('names nested, missing and unknown fields, once each', () => {
    const fields = fieldErrors(
      [
        { instancePath: '/data/0/url', keyword: 'type', message: 'must be string', params: {} },
        { instancePath: '/data/1', keyword: 'required', message: "must have required property 'url'", params: { missingProperty: 'url' } },
        { instancePath: '', keyword: 'additionalProperties', message: 'x', params: { additionalProperty: 'extra' } },
        { instancePath: '/data/0/event', keyword: 'enum', message: 'x', params: { allowedValues: ['a', 'b'] } },
        { instancePath: '/data/0/url', keyword: 'type', message: 'must be string', params: {} },
      ],
      'body',
    );
    expect(fields).toEqual([
      { field: 'data.0.url', message: 'must be string' },
      { field: 'data.1.url', message: 'is required' },
      { field: 'extra', message: 'is not allowed' },
      { field: 'data.0.event', message: 'must be one of: a, b' },
    ]);
  });

  it('prefixes path and query fields with where they came from', () => {
    expect(fieldErrors([{ instancePath: '/account_id', keyword: 'format', message: 'must match format "uuid"', params: {} }], 'params')).toEqual([
      { field: 'params.account_id', message: 'must match format "uuid"' },
    ]);
  });
});
