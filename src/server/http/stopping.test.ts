import { describe, expect, it } from 'vitest';
import type { ChannelDeps } from '../core/channels/ports.ts';
import type { MessageDeps } from '../core/messages/ports.ts';
import type { ExportDeps } from '../core/exports/ports.ts';
import type { Store } from '../core/ports.ts';
import type { UploadDeps } from '../core/uploads/uploads.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { buildHttpApp } from './app.ts';
import { memoryWindowCounter } from './rate-limit/window-counter.ts';

describe('a request that arrives while the gateway is stopping', () => {
  it('is refused with 503 in the error model and told to close its connection', async () => {
    const app = await buildHttpApp({
      store: {} as Store, // never reached: the refusal comes first
      clock: new ManualClock(),
      partnerKeyHash: '0'.repeat(64),
      rateLimitCounter: memoryWindowCounter(),
      urlPolicy: { allowLoopback: false },
      channels: {} as ChannelDeps,
      messages: {} as MessageDeps,
      exports: {} as ExportDeps,
      uploads: {} as UploadDeps,
      sandbox: false,
      resolveHost: async () => [],
      webhookSealer: { seal: () => '', open: () => ({}) },
      webhookSender: { post: async () => ({ error: 'not sent', latencyMs: 0 }) },
      checkReady: async () => {},
      isStopping: () => true,
      publicUrl: 'http://localhost:8080',
      version: 'test',
      widgetDir: null,
      logger: false,
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/v2/webhooks' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: 'SERVICE_UNAVAILABLE', description: 'Service is shutting down' });
      expect(res.headers.connection).toBe('close');
    } finally {
      await app.close();
    }
  });
});
