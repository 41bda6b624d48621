import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTooLarge, SourceRefused, TransferFailed, fetchSource, multipart, sourceAgent, sourceTypeOf, uploadNameOf } from './file-source.ts';
import type { HostResolver } from '../core/webhooks/url-policy.ts';

/** A web server for the files a send names, on loopback. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const text = async (body: Readable) => Buffer.concat(await body.toArray()).toString('latin1');

describe('fetching the files a send names', () => {
  const options = { agent: sourceAgent(false), allowLoopback: false, timeoutMs: 2000 };

  it('refuses addresses inside the gateway’s network, by address or by the name’s lookup', async () => {
    for (const url of ['http://10.0.0.1/offer.pdf', 'http://127.0.0.1:9/offer.pdf', 'http://[::1]:9/offer.pdf', 'http://169.254.169.254/latest/meta-data', 'http://localhost:9/offer.pdf', 'not a url']) {
      await expect(fetchSource(url, options, 1000, 'the platform'), url).rejects.toBeInstanceOf(SourceRefused);
    }
  });
});

describe('a file the CRM names', () => {
  let files: Awaited<ReturnType<typeof serve>>;
  const fetched: string[] = [];
  const options = { agent: sourceAgent(true), allowLoopback: true, timeoutMs: 2000 };

  beforeAll(async () => {
    files = await serve((req, res) => {
      fetched.push(req.url ?? '');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/moved') return void res.writeHead(302, { location: 'http://10.0.0.1/secret' }).end();
      if (path === '/gone') return void res.writeHead(404).end();
      if (path === '/busy') return void res.writeHead(503).end();
      if (path === '/big') return void res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '1000' }).end(Buffer.alloc(1000));
      res.writeHead(200, { 'content-type': 'application/pdf; charset=binary', 'content-length': '8', connection: 'close' }).end('%PDF-1.7');
    });
  });
  afterAll(() => files.close());

  it('comes with its type and length as its server says', async () => {
    const source = await fetchSource(`${files.url}/offer.pdf`, options, 500, 'the platform');
    expect([source.contentType, source.length, await text(source.body)]).toEqual(['application/pdf', 8, '%PDF-1.7']);
    expect(sourceTypeOf({}, source)).toBe('application/pdf');
    expect(sourceTypeOf({ mimetype: 'application/x-custom' }, source)).toBe('application/x-custom');
    expect(sourceTypeOf({}, { contentType: 'application/octet-stream' })).toBeNull();
  });

  it('is refused for good when it is not there, and left for a later try when its server fails', async () => {
    await expect(fetchSource(`${files.url}/gone`, options, 500, 'the platform')).rejects.toBeInstanceOf(SourceRefused);
    await expect(fetchSource(`${files.url}/busy`, options, 500, 'the platform')).rejects.toBeInstanceOf(TransferFailed);
  });

  it('is refused before it is read when its server says it is over the limit', async () => {
    await expect(fetchSource(`${files.url}/big`, options, 500, 'the platform')).rejects.toThrow(new FileTooLarge('the file is 1000 bytes; the platform takes at most 500'));
  });

  it('follows no redirect: one to a private address is refused, never fetched', async () => {
    await expect(fetchSource(`${files.url}/moved`, options, 500, 'the platform')).rejects.toBeInstanceOf(SourceRefused);
    expect(fetched.filter((u) => u.includes('secret'))).toEqual([]);
  });

  it('checks the address each connection is made to: a name that resolves elsewhere the next time is refused then', async () => {
    const answers = ['127.0.0.1', '10.0.0.1'];
    const rebinding: HostResolver = async () => [{ address: answers.shift() ?? '10.0.0.1', family: 4 }];
    const agent = sourceAgent(true, rebinding);
    const url = `http://files.rebind.test:${files.port}/offer.pdf`;
    // The first connection goes to loopback (allowed here); the server closes it, so the next needs a lookup of its own.
    const first = await fetchSource(url, { ...options, agent }, 500, 'the platform');
    expect(await text(first.body)).toBe('%PDF-1.7');
    await expect(fetchSource(url, { ...options, agent }, 500, 'the platform')).rejects.toBeInstanceOf(SourceRefused);
  });
});

describe('a multipart upload', () => {
  const source = (chunks: string[], length: number | null) => ({ body: Readable.from(chunks.map((c) => Buffer.from(c))), contentType: null, length });

  it('carries the text fields, then the file under its field and name, with the length told when it is known', async () => {
    const form = multipart({ chat_id: '4242', caption: 'Счёт' }, { field: 'document', name: 'in"voice\r\n.xlsx', contentType: 'application/zip\r\nX: y', source: source(['PK', 'zip'], 5) }, 100, 'Telegram');
    const boundary = /boundary=(.+)$/.exec(form.headers['content-type']!)![1]!;
    const body = await text(form.body);
    expect(body).toBe(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="chat_id"\r\n\r\n4242\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nСчёт\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="in_voice__.xlsx"\r\nContent-Type: application/zipX: y\r\n\r\nPKzip\r\n--${boundary}--\r\n`,
      ).toString('latin1'),
    );
    expect(Number(form.headers['content-length'])).toBe(Buffer.byteLength(body, 'latin1'));
    expect(form.overLimit()).toBe(false);
  });

  it('fails past the limit as the bytes come, and says so', async () => {
    const form = multipart({}, { field: 'data', name: 'x', contentType: 'application/pdf', source: source(['a'.repeat(60), 'a'.repeat(60)], null) }, 100, 'MAX');
    expect(form.headers['content-length']).toBeUndefined();
    await expect(text(form.body)).rejects.toThrow(new FileTooLarge('the file is over 100 bytes, which MAX does not take'));
    expect(form.overLimit()).toBe(true);
  });
});

describe('the name a file is uploaded under', () => {
  it('is the send’s, else its address’s last part, a stray `%` and all', () => {
    expect(uploadNameOf({ url: 'https://crm.example/files/50%.pdf' })).toBe('50%.pdf');
    expect(uploadNameOf({ url: 'https://crm.example/files/%D0%94%D0%BE%D0%B3.pdf' })).toBe('Дог.pdf');
    expect(uploadNameOf({ url: 'https://crm.example/' })).toBe('file');
    expect(uploadNameOf({ url: 'https://crm.example/x.pdf', name: 'offer.pdf' })).toBe('offer.pdf');
  });
});
