import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typeByName } from '../bot-common.ts';
import type { MaxApi } from './bot-api.ts';
import type { ChannelRecord, CredentialsCipher } from '../../core/channels/ports.ts';
import type { MessengerFile } from '../../core/messages/ports.ts';
import { FileTooLarge, SourceRefused, TransferFailed, UploadRefused, sourceAgent } from '../file-source.ts';
import { attachmentOf, bestMp4Of, maxFiles, uploadFrom, uploadTypeOf } from './bot-files.ts';

describe('customers’ files as the interface’s attachments', () => {
  it('keep MAX’s own address, with the name, type and size MAX gives', () => {
    expect(attachmentOf({ type: 'file', payload: { url: 'https://fd.oneme.ru/getfile?sig=s&id=1', token: 't' }, filename: 'Договор.DOCX', size: 4096 })).toEqual({
      url: 'https://fd.oneme.ru/getfile?sig=s&id=1',
      name: 'Договор.DOCX',
      mimetype: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      size: 4096,
    });
    expect(attachmentOf({ type: 'image', payload: { photo_id: 1, url: 'https://i.oneme.ru/i?r=x', token: 't' } })).toEqual({ url: 'https://i.oneme.ru/i?r=x' });
    expect(attachmentOf({ type: 'video', payload: { url: 'https://max.ru/v/1', token: 't' } })).toEqual({ url: 'https://max.ru/v/1' });
  });

  it('are not made of stickers, contacts, keyboards, or addresses that are not http', () => {
    expect(attachmentOf({ type: 'sticker', payload: { url: 'https://i.oneme.ru/s' } })).toBeNull();
    expect(attachmentOf({ type: 'contact', payload: null })).toBeNull();
    expect(attachmentOf({ type: 'file', payload: { url: 'file:///etc/passwd' } })).toBeNull();
    expect(attachmentOf({ type: 'file', payload: { url: `https://x.example/${'a'.repeat(2100)}` } })).toBeNull();
  });
});

describe('customers’ videos behind the gateway’s links', () => {
  const CHANNEL = '7d1b2a3c-0000-4000-8000-000000000001';
  const OTHER = '7d1b2a3c-0000-4000-8000-000000000002';
  const cipher: CredentialsCipher = { seal: () => 'sealed', open: () => ({}) } as unknown as CredentialsCipher;
  const looked: string[] = [];
  const store = {
    channels: {
      getById: async (id: string) => {
        looked.push(id);
        return { id, credentials: null } as unknown as ChannelRecord;
      },
    },
  } as unknown as Parameters<typeof maxFiles>[0]['store'];
  const files = maxFiles({ apiUrl: 'http://127.0.0.1:9', publicUrl: 'https://gw.example', linkKey: Buffer.alloc(32, 1), store, cipher });

  it('make a video with a token the gateway’s link (without MAX’s address or the token elsewhere), as MP4; other files keep MAX’s', () => {
    const link = (token: string) => files.link(CHANNEL, token);
    const video = attachmentOf({ type: 'video', payload: { url: 'https://max.ru/v/1', token: 'vid-TOKEN_1' }, filename: 'clip.mov', size: 10 }, link);
    expect(video).toEqual({ url: expect.stringMatching(new RegExp(`^https://gw\\.example/hooks/maxbot/${CHANNEL}/files/vid-TOKEN_1\\?signature=[\\w-]{43}$`)), name: 'clip.mov', mimetype: 'video/mp4' });
    // A token MAX would not give, or none: MAX's address, as without a link.
    expect(attachmentOf({ type: 'video', payload: { url: 'https://max.ru/v/1', token: 'a/b' } }, link)).toEqual({ url: 'https://max.ru/v/1' });
    expect(attachmentOf({ type: 'video', payload: { url: 'https://max.ru/v/1' } }, link)).toEqual({ url: 'https://max.ru/v/1' });
    expect(attachmentOf({ type: 'file', payload: { url: 'https://fd.oneme.ru/getfile?sig=s', token: 't' }, filename: 'a.pdf' }, link)).toEqual({
      url: 'https://fd.oneme.ru/getfile?sig=s',
      name: 'a.pdf',
      mimetype: 'application/pdf',
    });
  });

  it('are signed for their channel and token: an altered, foreign or moved link is refused before anything is read', async () => {
    const signature = new URL(files.link(CHANNEL, 'vid1')).searchParams.get('signature')!;
    expect(files.link(CHANNEL, 'vid1')).toBe(files.link(CHANNEL, 'vid1'));
    expect(files.link(OTHER, 'vid1')).not.toBe(files.link(CHANNEL, 'vid1').replace(CHANNEL, OTHER));
    const other = maxFiles({ apiUrl: 'http://127.0.0.1:9', publicUrl: 'https://gw.example', linkKey: Buffer.alloc(32, 2), store, cipher });
    const altered = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const [channel, token, sig] of [
      [CHANNEL, 'vid1', altered],
      [CHANNEL, 'vid2', signature],
      [OTHER, 'vid1', signature],
      [CHANNEL, 'vid1', ''],
      [CHANNEL, 'vid1', `${signature}AA`],
      [CHANNEL, 'vid1', new URL(other.link(CHANNEL, 'vid1')).searchParams.get('signature')!],
    ] as const) {
      expect(await files.open(channel, token, sig), `${channel} ${token} ${sig}`).toBe('forbidden');
    }
    expect(looked).toEqual([]);
    // Signed: the channel is read; one without a token gives nothing (a 404).
    expect(await files.open(CHANNEL, 'vid1', signature)).toBeNull();
    expect(looked).toEqual([CHANNEL]);
  });

  it('open the largest MP4 MAX gives, never HLS', () => {
    expect(bestMp4Of({ urls: { mp4_480: 'https://v.example/480', mp4_1080: 'https://v.example/1080', hls: 'https://v.example/h', mp4_720: 'https://v.example/720' } })).toBe(
      'https://v.example/1080',
    );
    expect(bestMp4Of({ urls: { hls: 'https://v.example/h', mp4_360: 'ftp://v.example/360', mp4_240: 'https://v.example/240' } })).toBe('https://v.example/240');
    expect(bestMp4Of({ urls: { hls: 'https://v.example/h' } })).toBeNull();
    expect(bestMp4Of({ urls: null })).toBeNull();
    expect(bestMp4Of({})).toBeNull();
  });
});

describe('uploads', () => {
  it('go as a picture, video, sound or file by the file’s type', () => {
    expect(['image/jpeg', 'image/png', 'video/mp4', 'audio/mpeg', 'application/pdf', 'image/svg+xml', undefined].map(uploadTypeOf)).toEqual([
      'image',
      'image',
      'video',
      'audio',
      'file',
      'file',
      'file',
    ]);
  });
});

describe('fetching the files a send names', () => {
  const api: MaxApi = {
    call: () => Promise.reject(new Error('MAX is not asked for an upload address before the file is fetched')),
  };
  const options = { agent: sourceAgent(false), allowLoopback: false, timeoutMs: 2000 };

  it('refuses addresses inside the gateway’s network, by address or by the name’s lookup', async () => {
    for (const url of ['http://10.0.0.1/offer.pdf', 'http://127.0.0.1:9/offer.pdf', 'http://[::1]:9/offer.pdf', 'http://169.254.169.254/latest/meta-data', 'http://localhost:9/offer.pdf', 'not a url']) {
      await expect(uploadFrom(api, { url }, options), url).rejects.toBeInstanceOf(SourceRefused);
    }
  });
});

describe('file names a customer chose', () => {
  it('tell no type by an extension every object has (`__proto__`, `constructor`)', () => {
    for (const filename of ['x.__proto__', 'x.constructor', 'x.toString', 'x.hasOwnProperty', '__proto__']) {
      const found = attachmentOf({ type: 'file', payload: { url: 'https://fd.oneme.ru/getfile?sig=s&id=3' }, filename, size: 1 });
      expect(found, filename).toEqual({ url: 'https://fd.oneme.ru/getfile?sig=s&id=3', name: filename, size: 1 });
    }
    expect(typeByName('x.__proto__', new Map([['pdf', 'application/pdf']]))).toBeUndefined();
    expect(typeByName('A.PDF', new Map([['pdf', 'application/pdf']]))).toBe('application/pdf');
  });
});

/** A web server for the files a send names, and MAX's upload server, on loopback. */
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

describe('uploading a file the CRM names', () => {
  let files: Awaited<ReturnType<typeof serve>>;
  let uploads: Awaited<ReturnType<typeof serve>>;
  let uploadStatus = 200;
  const received: string[] = [];

  beforeAll(async () => {
    files = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/big') return void res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '1000' }).end(Buffer.alloc(1000));
      if (path === '/streamed') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.write(Buffer.alloc(600));
        return void res.end(Buffer.alloc(600));
      }
      res.writeHead(200, { 'content-type': 'application/pdf', connection: 'close' }).end('%PDF-1.7');
    });
    uploads = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('latin1')));
      req.on('end', () => {
        received.push(body);
        res.writeHead(uploadStatus, { 'content-type': 'application/json' }).end(uploadStatus === 200 ? '{"token":"file-token"}' : '{"error":"nope"}');
      });
    });
  });
  afterAll(async () => {
    await files.close();
    await uploads.close();
  });

  const api: MaxApi = { call: async <T>() => ({ url: `${uploads.url}/upload` }) as T };
  const options = { agent: sourceAgent(true), allowLoopback: true, timeoutMs: 2000, limitBytes: 500 };

  it('uploads under the name of its address, a stray `%` and all, and closes the source', async () => {
    uploadStatus = 200;
    expect(await uploadFrom(api, { url: `${files.url}/50%25zz%.pdf` }, options)).toEqual({ type: 'file', payload: { token: 'file-token' } });
    expect(received.at(-1)).toContain('filename="50%25zz%.pdf"');
  });

  it('refuses for good what MAX’s upload server refuses, and leaves to a later try what may pass', async () => {
    for (const [status, kind] of [
      [400, UploadRefused],
      [413, UploadRefused],
      [415, UploadRefused],
      [408, TransferFailed],
      [429, TransferFailed],
      [502, TransferFailed],
    ] as const) {
      uploadStatus = status;
      await expect(uploadFrom(api, { url: `${files.url}/offer.pdf` }, options), String(status)).rejects.toBeInstanceOf(kind);
    }
    uploadStatus = 200;
  });

  it('refuses a file over MAX’s limit, by its length before the upload or by its bytes as they come', async () => {
    const asked: string[] = [];
    const counting: MaxApi = { call: async <T>(_m: string, path: string) => (asked.push(path), { url: `${uploads.url}/upload` }) as T };
    await expect(uploadFrom(counting, { url: `${files.url}/big` }, options)).rejects.toBeInstanceOf(FileTooLarge);
    expect(asked).toEqual([]);
    await expect(uploadFrom(counting, { url: `${files.url}/streamed` }, options)).rejects.toBeInstanceOf(FileTooLarge);
  });
});

describe('a part of a customer’s video', () => {
  it('is asked for at every address MAX’s video server sends the gateway on to, and handed on with its range and length', async () => {
    const CHANNEL = '7d1b2a3c-0000-4000-8000-000000000001';
    const ranges: (string | undefined)[] = [];
    const max = await serve((req, res) => {
      req.resume();
      if (req.url === '/videos/vid1') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ urls: { mp4_720: `${max.url}/cdn/vid1.mp4` } }));
      ranges.push(req.headers.range);
      if (req.url === '/cdn/vid1.mp4') return void res.writeHead(302, { location: '/edge/vid1.mp4' }).end();
      res.writeHead(206, { 'content-type': 'video/mp4', 'content-range': 'bytes 90-99/100', 'content-length': 10 }).end('0123456789');
    });
    try {
      const store = { channels: { getById: async (id: string) => ({ id, credentials: 'sealed' }) as unknown as ChannelRecord } } as unknown as Parameters<typeof maxFiles>[0]['store'];
      const cipher = { open: () => ({ access_token: 'max-token' }) } as unknown as CredentialsCipher;
      const files = maxFiles({ apiUrl: max.url, publicUrl: 'https://gw.example', linkKey: Buffer.alloc(32, 1), store, cipher });
      const signature = new URL(files.link(CHANNEL, 'vid1')).searchParams.get('signature')!;
      const opened = await files.open(CHANNEL, 'vid1', signature, 'bytes=-10');
      expect(opened).toMatchObject({ contentType: 'video/mp4', size: 10, contentRange: 'bytes 90-99/100', acceptsRanges: true });
      expect(Buffer.concat(await (opened as MessengerFile).stream.toArray()).toString()).toBe('0123456789');
      expect(ranges).toEqual(['bytes=-10', 'bytes=-10']);
    } finally {
      await max.close();
    }
  });

  it('is not fetched from an address the gateway may not reach', async () => {
    const CHANNEL = '7d1b2a3c-0000-4000-8000-000000000001';
    let fetched = 0;
    let location = '';
    const max = await serve((req, res) => {
      req.resume();
      if (req.url === '/videos/vid1') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ urls: { mp4_720: location } }));
      fetched++;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 10 }).end('0123456789');
    });
    try {
      const store = { channels: { getById: async (id: string) => ({ id, credentials: 'sealed' }) as unknown as ChannelRecord } } as unknown as Parameters<typeof maxFiles>[0]['store'];
      const cipher = { open: () => ({ access_token: 'max-token' }) } as unknown as CredentialsCipher;
      const deps = { apiUrl: max.url, publicUrl: 'https://gw.example', linkKey: Buffer.alloc(32, 1), store, cipher };
      const guarded = maxFiles({ ...deps, agent: sourceAgent(false) });
      const signature = new URL(guarded.link(CHANNEL, 'vid1')).searchParams.get('signature')!;
      // MAX's answer points at loopback, which this gateway may not reach: by name, or as an address (no lookup runs for it).
      for (const host of ['localhost', '127.0.0.1', '[::1]']) {
        location = `http://${host}:${new URL(max.url).port}/cdn/vid1.mp4`;
        await expect(guarded.open(CHANNEL, 'vid1', signature), host).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      }
      expect(fetched).toBe(0);
      location = `http://localhost:${new URL(max.url).port}/cdn/vid1.mp4`;
      // Allowed, the same address is fetched.
      const allowed = maxFiles({ ...deps, agent: sourceAgent(true) });
      expect(await allowed.open(CHANNEL, 'vid1', signature)).toMatchObject({ contentType: 'video/mp4', size: 10 });
      expect(fetched).toBe(1);
    } finally {
      await max.close();
    }
  });

  it('is looked up at MAX once while its address serves it, and again once the address has expired', async () => {
    const CHANNEL = '7d1b2a3c-0000-4000-8000-000000000001';
    let generation = 1;
    let lookups = 0;
    const max = await serve((req, res) => {
      req.resume();
      if (req.url === '/videos/vid1') {
        lookups++;
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ urls: { mp4_720: `${max.url}/cdn/vid1.mp4?expires=${generation}` } }));
      }
      // MAX's signed addresses expire: an earlier one is refused.
      if (!req.url?.endsWith(`expires=${generation}`)) return void res.writeHead(403).end();
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 10 }).end('0123456789');
    });
    try {
      const store = { channels: { getById: async (id: string) => ({ id, credentials: 'sealed' }) as unknown as ChannelRecord } } as unknown as Parameters<typeof maxFiles>[0]['store'];
      const cipher = { open: () => ({ access_token: 'max-token' }) } as unknown as CredentialsCipher;
      const files = maxFiles({ apiUrl: max.url, publicUrl: 'https://gw.example', linkKey: Buffer.alloc(32, 1), store, cipher });
      const signature = new URL(files.link(CHANNEL, 'vid1')).searchParams.get('signature')!;
      const openAll = async () => Buffer.concat(await ((await files.open(CHANNEL, 'vid1', signature)) as MessengerFile).stream.toArray()).toString();
      for (let i = 0; i < 3; i++) expect(await openAll()).toBe('0123456789');
      expect(lookups).toBe(1);
      generation = 2;
      expect(await openAll()).toBe('0123456789');
      expect(lookups).toBe(2);
    } finally {
      await max.close();
    }
  });
});
