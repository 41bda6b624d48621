import { expect, test } from './fixtures.ts';
const seen: string[] = [];
for (const i of [1, 2]) {
  test(`same gateway within the file ${i}`, async ({ gateway, request }) => {
    seen.push(gateway.baseURL);
    expect(new Set(seen).size).toBe(1);
    expect((await request.get('/healthz')).status()).toBe(200);
    console.log(test.info().file.split('/').pop(), process.pid, gateway.baseURL);
  });
}
