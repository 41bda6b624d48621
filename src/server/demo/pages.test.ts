import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeadersPlugin } from '../http/plugins/security-headers.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { mountDemoCrm } from './routes.ts';

describe('the demo CRM’s page', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    await app.register(securityHeadersPlugin);
    await mountDemoCrm(app, { clock: new ManualClock(), publicUrl: 'http://localhost:8080', sandbox: true, account: async () => null });
  });
  afterAll(() => app.close());

  it('runs only its own scripts, embeds only the gateway’s frames, and is framed by nobody', async () => {
    for (const url of ['/', '/demo/index.html', '/demo/demo.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['content-security-policy']).split('; ')).toEqual(
        expect.arrayContaining(["script-src 'self'", "default-src 'self'", "frame-src 'self' http://localhost:8080", "object-src 'none'", "frame-ancestors 'none'"]),
      );
    }
    expect((await app.inject({ method: 'GET', url: '/' })).body).toContain('<script type="module" src="/demo/demo.js"></script>');
  });
});
