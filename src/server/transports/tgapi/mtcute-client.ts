import { createCipheriv, createHash, createHmac, pbkdf2, randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { deflateSync, gunzipSync } from 'node:zlib';
import type { TelegramClient } from '@mtcute/core/client.js';
import type { MemoryStorage } from '@mtcute/core';

/**
 * One account's MTProto client with its session kept in memory (`storage`): the session code seals that memory into
 * the database and puts it back before the client connects.
 */
export interface TgapiClient {
  client: TelegramClient;
  storage: MemoryStorage;
}

/** Makes a fresh client for one account (the real one in production, one answered by a fake in tests). */
export type TgapiClientFactory = () => Promise<TgapiClient>;

/** The gateway's Telegram application (TELEGRAM_API_ID, TELEGRAM_API_HASH), and where its first data centre is. */
export interface TgapiApplication {
  apiId: number;
  apiHash: string;
  /** TELEGRAM_DC (`host:port`): the data centre the clients start at; unset, the library's own list of Telegram's. */
  dc?: { host: string; port: number } | null;
}

/** What the library needs of the platform, for Node: its crypto provider (Node's ciphers, AES-IGE from WebAssembly) and a quiet platform. */
export async function nodeRuntime() {
  const [utils, wasm] = await Promise.all([import('@mtcute/core/utils.js'), import('@mtcute/wasm')]);

  class NodeCrypto extends utils.BaseCryptoProvider {
    createAesCtr(key: Uint8Array, iv: Uint8Array) {
      const cipher = createCipheriv(`aes-${key.length * 8}-ctr`, key, iv);
      return { process: (data: Uint8Array) => new Uint8Array(cipher.update(data)) };
    }
    pbkdf2(password: Uint8Array, salt: Uint8Array, iterations: number, keylen = 64, algo = 'sha512') {
      return new Promise<Uint8Array>((resolve, reject) => pbkdf2(password, salt, iterations, keylen, algo, (err, key) => (err ? reject(err) : resolve(key))));
    }
    sha1 = (data: Uint8Array) => new Uint8Array(createHash('sha1').update(data).digest());
    sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
    hmacSha256 = (data: Uint8Array, key: Uint8Array) => new Uint8Array(createHmac('sha256', key).update(data).digest());
    gzip(data: Uint8Array, maxSize: number) {
      try {
        return deflateSync(data, { maxOutputLength: maxSize });
      } catch {
        return null;
      }
    }
    gunzip = (data: Uint8Array) => gunzipSync(data);
    randomFill = (buf: Uint8Array) => void randomFillSync(buf);
    async initialize() {
      const file = createRequire(import.meta.url).resolve(`@mtcute/wasm/${wasm.SIMD_AVAILABLE ? 'mtcute-simd.wasm' : 'mtcute.wasm'}`);
      wasm.initSync(await readFile(file));
    }
    createAesIge(key: Uint8Array, iv: Uint8Array) {
      return { encrypt: (data: Uint8Array) => wasm.ige256Encrypt(data, key, iv), decrypt: (data: Uint8Array) => wasm.ige256Decrypt(data, key, iv) };
    }
  }

  return {
    crypto: new NodeCrypto(),
    platform: {
      beforeExit: () => () => {},
      log: () => {},
      getDefaultLogLevel: () => null,
      getDeviceModel: () => 'Messaging gateway',
    },
  };
}

/**
 * The library is loaded when the first personal Telegram channel is opened, not with the gateway: most gateways never
 * connect one, and the library with its schema weighs tens of megabytes.
 */
export function mtcuteClients(app: TgapiApplication): TgapiClientFactory {
  return async () => {
    const [{ TelegramClient }, core, fumanNode, runtime] = await Promise.all([
      import('@mtcute/core/client.js'),
      import('@mtcute/core'),
      import('@fuman/node'),
      nodeRuntime(),
    ]);
    const storage = new core.MemoryStorage();
    const dc = app.dc ? { id: 2, ipAddress: app.dc.host, ipv6: false, port: app.dc.port } : null;
    const client = new TelegramClient({
      apiId: app.apiId,
      apiHash: app.apiHash,
      storage,
      ...runtime,
      transport: {
        async connect(target: { ipAddress: string; port: number }) {
          const conn = await fumanNode.connectTcp({ address: target.ipAddress, port: target.port });
          conn.setNoDelay(true);
          conn.setKeepAlive(true);
          return conn;
        },
        packetCodec: () => new core.IntermediatePacketCodec(),
      },
      logLevel: 0,
      ...(dc ? { defaultDcs: { main: dc, media: dc } } : {}),
      // A session opened again asks Telegram what it missed meanwhile (updates.getDifference from the state kept).
      updates: { catchUp: true },
    });
    return { client, storage };
  };
}
