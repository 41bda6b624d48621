import { describe, expect, it } from 'vitest';
import { errorsPlugin, fieldErrors } from './errors.ts';

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

describe('an error after a route described its body', () => {
  it('drops what described the file, and is never cached', async () => {
    const { default: Fastify } = await import('fastify');
    const { Readable } = await import('node:stream');
    const app = Fastify();
    await app.register(errorsPlugin);
    app.get('/file', (_request, reply) => {
      // The platform's stream fails before its first byte, after the route set the part's headers.
      const failing = new Readable({ read: () => failing.destroy(new Error('socket hang up')) });
      return reply
        .code(206)
        .header('content-range', 'bytes 0-9/100')
        .header('accept-ranges', 'bytes')
        .header('content-disposition', 'attachment')
        .header('cache-control', 'private, max-age=86400')
        .type('video/mp4')
        .send(failing);
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/file' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ error: 'INTERNAL_ERROR' });
      expect([res.headers['content-range'], res.headers['accept-ranges'], res.headers['content-disposition'], res.headers['cache-control']]).toEqual([
        undefined,
        undefined,
        undefined,
        'no-store',
      ]);
    } finally {
      await app.close();
    }
  });
});
