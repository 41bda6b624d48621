import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/harness.ts';
import { databaseKind } from '../testing/test-database.ts';
import { gatewayLogger } from './request-log.ts';

describe(`the request log (${databaseKind()})`, () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) });
  let t: TestGateway;
  let token: string;

  beforeAll(async () => {
    t = await startTestGateway({ logger: { ...gatewayLogger('info'), stream } });
    ({ token } = await t.newAccount());
  });
  afterAll(() => t.close());

  it('writes one info summary per failed request, none for one that went well, and no secret of an address', async () => {
    lines.length = 0;
    const ok = await t.call('GET', '/v2/channels', { token });
    expect(ok.statusCode).toBe(200);
    const failing = [
      '/downloads/exports/6f1c1d9a-0c52-4d2e-9d8c-2b4f4a3b2c1d.csv?expires=4102444800&signature=SEKRET1',
      '/files/6f1c1d9a-0c52-4d2e-9d8c-2b4f4a3b2c1d?signature=SEKRET2',
      '/v2/channels?access_token=SEKRET3',
      '/nowhere?code=SEKRET4&state=SEKRET5',
    ];
    for (const url of failing) expect((await t.call('GET', url)).statusCode).toBeGreaterThanOrEqual(400);

    const text = JSON.stringify(lines);
    for (const secret of ['SEKRET1', 'SEKRET2', 'SEKRET3', 'SEKRET4', 'SEKRET5', token]) expect(text).not.toContain(secret);
    const summaries = lines.filter((l) => l.msg === 'request completed');
    expect(summaries.map((l) => (l.req as { url: string }).url)).toEqual([
      '/downloads/exports/6f1c1d9a-0c52-4d2e-9d8c-2b4f4a3b2c1d.csv?expires=4102444800&signature=[redacted]',
      '/files/6f1c1d9a-0c52-4d2e-9d8c-2b4f4a3b2c1d?signature=[redacted]',
      '/v2/channels?access_token=[redacted]',
      '/nowhere?code=[redacted]&state=[redacted]',
    ]);
    expect(summaries.every((l) => l.level === 30 && typeof l.responseTime === 'number')).toBe(true);
    expect(lines.filter((l) => l.msg === 'incoming request')).toEqual([]);
  });
});
