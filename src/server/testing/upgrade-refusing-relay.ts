import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay on loopback in front of a WebSocket server that answers the first `refusals` upgrades itself with
 * `503 Service Unavailable` (as a load balancer with no backend up does) and keeps each such connection open; every
 * later connection is piped through to the server untouched.
 */
export async function upgradeRefusingRelay(target: URL, refusals: number): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    connections++;
    if (connections <= refusals) {
      let head = '';
      const refuse = (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        client.off('data', refuse);
        client.write('HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 19\r\n\r\nno backend is ready');
      };
      client.on('data', refuse);
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: url.toString(),
    connections: () => connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
