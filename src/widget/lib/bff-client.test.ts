import { describe, expect, it } from 'vitest';
import { BffError, createBffClient } from './bff-client.ts';

function fakeFetch(answers: { status: number; body: unknown }[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const answer = answers.shift()!;
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

describe('the /bff client', () => {
  it('keeps the session token in memory and sends it as a bearer token', async () => {
    const { fetch, calls } = fakeFetch([
      { status: 201, body: { data: { token: 'mgs_t', expires_at: '2030-01-01T00:15:00.000Z' }, meta: { timestamp: 0 } } },
      { status: 200, body: { data: [], meta: { timestamp: 0 } } },
    ]);
    const client = createBffClient({ baseUrl: 'https://gw.example.com', fetch, now: () => Date.UTC(2030, 0, 1) });
    await client.exchange('the-link');
    expect(calls[0]!.url).toBe('https://gw.example.com/bff/session');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ link: 'the-link' });
    expect(await client.channels()).toEqual([]);
    expect((calls[1]!.init.headers as Record<string, string>).authorization).toBe('Bearer mgs_t');
    expect(calls[1]!.init.credentials).toBeUndefined();
    expect(client.renewalDelay()).toBe(7.5 * 60_000);
  });

  it('sends a file as its own bytes under its own type, an untyped one as bytes', async () => {
    const answer = { status: 201, body: { data: {}, meta: { timestamp: 0 } } };
    const { fetch, calls } = fakeFetch([answer, answer]);
    const client = createBffClient({ baseUrl: 'https://gw.example.com', fetch });
    const pdf = new Blob(['%PDF'], { type: 'application/pdf' });
    await client.request('POST', '/uploads?name=a.pdf', pdf);
    expect((calls[0]!.init.headers as Record<string, string>)['content-type']).toBe('application/pdf');
    expect(calls[0]!.init.body).toBe(pdf);
    await client.request('POST', '/uploads?name=b', new Blob(['x']));
    expect((calls[1]!.init.headers as Record<string, string>)['content-type']).toBe('application/octet-stream');
  });

  it('reports errors in the error model, and a lost session once', async () => {
    const { fetch } = fakeFetch([
      { status: 201, body: { data: { token: 'mgs_t', expires_at: '2030-01-01T00:15:00.000Z' }, meta: { timestamp: 0 } } },
      { status: 401, body: { error: 'UNAUTHORIZED', description: 'Missing, invalid or expired session token' } },
    ]);
    let lost = 0;
    const client = createBffClient({ baseUrl: 'https://gw.example.com', fetch, onSessionLost: () => lost++ });
    await client.exchange('the-link');
    const error = await client.session().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BffError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(lost).toBe(1);
    expect(client.token()).toBeNull();
  });
});
