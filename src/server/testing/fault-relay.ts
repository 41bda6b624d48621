import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { listenOnLoopback, throughLoopbackPort } from './tcp-proxy.ts';

/**
 * A TCP relay on loopback between a client (the real Baileys) and a server (the fake WhatsApp), which fails the way
 * networks do:
 * - `drop()`: every connection reset (RST on both sides), as a NAT or a load balancer forgetting them;
 * - `blackhole()`: nothing crosses any more, either way, and nobody is told: sockets stay open, writes succeed on
 *   the writer's side, new connections are taken but get no answer. `restore()` lets the held bytes through in order
 *   (TCP retransmits them); with `{ lose: true }` they are gone instead and the connections that lost some are reset
 *   on restore, as a stream cannot skip bytes;
 * - `stall(direction)`: one direction held (until restore) or delayed by `delayMs`: the client's sends reach the
 *   server late, or the server's acks reach the client late (or never, if the connection dies first);
 * - `refuseUpgrades(n)`: the next `n` connections are answered `HTTP/1.1 503` to their WebSocket upgrade.
 * A connection's end (FIN) or reset crosses in its turn after the bytes before it, so a blackhole hides it too.
 */
export type Direction = 'up' | 'down';

export interface FaultRelay {
  port: number;
  /** The target's URL (ws:// or http://) with host and port replaced by the relay's. */
  url(targetUrl: string): string;
  /** Connections carried at the moment. */
  open(): number;
  /** Connections accepted since the start. */
  accepted(): number;
  /** Bytes read from the client (`up`) or the server (`down`) since the start, whether they crossed or not. */
  bytes(direction: Direction): number;
  drop(): void;
  blackhole(options?: { lose?: boolean }): void;
  stall(direction: Direction, options?: { delayMs?: number; lose?: boolean }): void;
  refuseUpgrades(count?: number, status?: number): void;
  /** Ends every fault: held bytes flow (or lost ones reset their connections), upgrades are answered again. */
  restore(): void;
  close(): Promise<void>;
}

type Pushed = { kind: 'data'; chunk: Buffer } | { kind: 'end' | 'reset' };
type Item = Pushed & { due: number };

/** One direction of one connection: what was read from `from`, written to `to` in order when its time comes. */
class Lane {
  queue: Item[] = [];
  held = false;
  lose = false;
  delayMs = 0;
  /** Bytes were thrown away: the connection is reset when the lane flows again. */
  broken = false;
  done = false;
  private timer: NodeJS.Timeout | null = null;

  private readonly to: () => Socket | null;

  constructor(to: () => Socket | null) {
    this.to = to;
  }

  push(item: Pushed) {
    if (this.done) return;
    if (this.lose && item.kind === 'data') {
      this.broken = true;
      return;
    }
    this.queue.push({ ...item, due: Date.now() + this.delayMs });
    this.pump();
  }

  pump() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.held) return;
    const to = this.to();
    if (!to) return;
    if (this.broken) {
      this.finish();
      to.resetAndDestroy();
      return;
    }
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      const wait = next.due - Date.now();
      if (wait > 0) {
        this.timer = setTimeout(() => this.pump(), wait);
        return;
      }
      this.queue.shift();
      if (next.kind === 'data') to.write(next.chunk);
      else if (next.kind === 'end') to.end();
      else {
        this.finish();
        to.resetAndDestroy();
        return;
      }
    }
  }

  finish() {
    this.done = true;
    this.queue = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
  up: Lane;
  down: Lane;
}

export async function startFaultRelay(target: { host: string; port: number }): Promise<FaultRelay> {
  if (!['127.0.0.1', 'localhost', '::1'].includes(target.host) && !target.host.startsWith('127.')) throw new Error('the fault relay only relays to loopback');
  const pairs = new Set<Pair>();
  let accepted = 0;
  const read = { up: 0, down: 0 };
  let refusals = 0;
  let refusalStatus = 503;
  const faults = { blackhole: false, lose: false, stall: null as null | { direction: Direction; delayMs: number; lose: boolean } };

  const shape = (pair: Pair) => {
    for (const [lane, direction] of [
      [pair.up, 'up'],
      [pair.down, 'down'],
    ] as const) {
      const stalled = faults.stall?.direction === direction ? faults.stall : null;
      lane.held = faults.blackhole || (stalled !== null && stalled.delayMs === 0);
      lane.lose = (faults.blackhole && faults.lose) || (stalled?.lose ?? false);
      lane.delayMs = stalled?.delayMs ?? 0;
    }
  };

  const refuse = (client: Socket, status: number) => {
    let head = '';
    client.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      client.end(`HTTP/1.1 ${status} Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    });
    client.on('error', () => client.destroy());
  };

  const server = createServer({ allowHalfOpen: true }, (client) => {
    accepted++;
    if (refusals > 0) {
      refusals--;
      refuse(client, refusalStatus);
      return;
    }
    const pair: Pair = { client, upstream: null, up: new Lane(() => pair.upstream), down: new Lane(() => client) };
    pairs.add(pair);
    shape(pair);
    const forget = () => {
      if (client.destroyed && (pair.upstream?.destroyed ?? true)) pairs.delete(pair);
    };
    const upstream = connect({ host: target.host, port: target.port, allowHalfOpen: true });
    upstream.once('connect', () => {
      pair.upstream = upstream;
      pair.up.pump();
    });
    client.on('data', (chunk: Buffer) => {
      read.up += chunk.length;
      pair.up.push({ kind: 'data', chunk });
    });
    client.on('end', () => pair.up.push({ kind: 'end' }));
    client.on('error', () => pair.up.push({ kind: 'reset' }));
    client.on('close', (hadError) => {
      if (!hadError && !client.readableEnded) pair.up.push({ kind: 'reset' });
      forget();
    });
    upstream.on('data', (chunk: Buffer) => {
      read.down += chunk.length;
      pair.down.push({ kind: 'data', chunk });
    });
    upstream.on('end', () => pair.down.push({ kind: 'end' }));
    upstream.on('error', () => pair.down.push({ kind: 'reset' }));
    upstream.on('close', (hadError) => {
      if (!hadError && !upstream.readableEnded) pair.down.push({ kind: 'reset' });
      forget();
    });
  });
  await listenOnLoopback(server, 0);
  const port = (server.address() as AddressInfo).port;
  const reshape = () => {
    for (const pair of pairs) {
      shape(pair);
      pair.up.pump();
      pair.down.pump();
    }
  };

  return {
    port,
    url: (targetUrl) => throughLoopbackPort(targetUrl, port),
    open: () => pairs.size,
    accepted: () => accepted,
    bytes: (direction) => read[direction],
    drop() {
      for (const pair of pairs) {
        pair.up.finish();
        pair.down.finish();
        pair.client.resetAndDestroy();
        pair.upstream?.resetAndDestroy();
      }
      pairs.clear();
    },
    blackhole(options = {}) {
      faults.blackhole = true;
      faults.lose = options.lose ?? false;
      reshape();
    },
    stall(direction, options = {}) {
      faults.stall = { direction, delayMs: options.delayMs ?? 0, lose: options.lose ?? false };
      reshape();
    },
    refuseUpgrades(count = 1, status = 503) {
      refusals = count;
      refusalStatus = status;
    },
    restore() {
      faults.blackhole = false;
      faults.lose = false;
      faults.stall = null;
      refusals = 0;
      reshape();
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const pair of pairs) {
        pair.up.finish();
        pair.down.finish();
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
      await closed;
    },
  };
}
