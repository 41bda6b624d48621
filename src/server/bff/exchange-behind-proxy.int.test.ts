import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { databaseKind } from '../testing/test-database.ts';

/** Behind a load balancer every frame arrives from the balancer's address; its X-Forwarded-For names the caller. */
describe(`link exchanges behind a trusted proxy (${databaseKind()})`, () => {
  const clock = new ManualClock();
  let t: TestGateway;
  const exchange = (caller: string) =>
    t.gateway.app.inject({ method: 'POST', url: '/bff/session', payload: { link: 'forged' }, remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': caller } });

  beforeAll(async () => {
    t = await startTestGateway({ clock, env: { TRUST_PROXY: '10.0.0.0/8' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts each forwarded caller in a window of its own', async () => {
    for (let i = 0; i < 300; i++) expect((await exchange('203.0.113.7')).statusCode).toBe(401);
    expect((await exchange('203.0.113.7')).statusCode).toBe(429);
    // Same balancer, another caller: its own window.
    expect((await exchange('198.51.100.4')).statusCode).toBe(401);
  });

  it('believes no forwarded address from a proxy it does not trust', async () => {
    clock.advance(5_000);
    const spoofed = (caller: string) =>
      t.gateway.app.inject({ method: 'POST', url: '/bff/session', payload: { link: 'forged' }, remoteAddress: '192.0.2.50', headers: { 'x-forwarded-for': caller } });
    for (let i = 0; i < 300; i++) expect((await spoofed(`203.0.113.${i % 200}`)).statusCode).toBe(401);
    expect((await spoofed('198.51.100.99')).statusCode).toBe(429);
  });
});
