import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on loopback in front of a server (PostgreSQL, Redis) that a test can take away and give back:
 * `cut()` drops every connection it carries and stops listening, so new connections are refused, as while a
 * database restarts; `restore()` listens again on the same port.
 */
export interface TcpProxy {
  port: number;
  /** The target's URL with host and port replaced by the proxy's. */
  url(targetUrl: string): string;
  /** Connections carried at the moment. */
  open(): number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** `targetUrl` with its host and port replaced by those of a relay or proxy on loopback at `port`. */
export function throughLoopbackPort(targetUrl: string, port: number): string {
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

/** Listens on loopback at `port` (0: any free one). */
export const listenOnLoopback = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const onConnection = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

  let server = createServer(onConnection);
  await listenOnLoopback(server, 0);
  const port = (server.address() as AddressInfo).port;
  let listening = true;

  const dropAll = () => {
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    url: (targetUrl) => throughLoopbackPort(targetUrl, port),
    open: () => pairs.size,
    async cut() {
      if (!listening) return;
      listening = false;
      const closed = close(server);
      dropAll();
      await closed;
    },
    async restore() {
      if (listening) return;
      server = createServer(onConnection);
      await listenOnLoopback(server, port);
      listening = true;
    },
    async close() {
      const closed = listening ? close(server) : Promise.resolve();
      listening = false;
      dropAll();
      await closed;
    },
  };
}
