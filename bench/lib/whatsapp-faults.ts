/**
 * The faults of the WhatsApp soak, drawn from a seeded source: what the network does (a reset, a silent death with
 * or without the bytes coming through after, one direction stalled or slowed, a refused upgrade) and what WhatsApp
 * does (a stream error it ends a session with, a login refused without a reason, acks lost or late). Each one starts,
 * lasts, and ends by itself; `dead` tells whether the session cannot work while it lasts (what the channel's status
 * is then held to).
 */
import type { FaultRelay } from '../../src/server/testing/fault-relay.ts';
import type { FaultServer } from '../../src/server/testing/whatsapp-fault-server.ts';
import type { StreamErrorKind } from '../../src/server/testing/whatsapp-stream-errors.ts';

export interface Fault {
  name: string;
  /** The session cannot work until it ends: sends and messages wait, its channel must not show `active` for long. */
  dead: boolean;
  /** How long it lasts (0: at once, over when the session is back). */
  ms: number;
  start(): Promise<void> | void;
  end(): Promise<void> | void;
}

const between = (random: () => number, min: number, max: number) => Math.round(min + (max - min) * random());

export function drawFault(random: () => number, relay: FaultRelay, server: FaultServer): Fault {
  const kinds: (() => Fault)[] = [
    () => ({ name: 'reset', dead: false, ms: 0, start: () => relay.drop(), end: () => {} }),
    () => ({ name: 'silent death, bytes through after', dead: true, ms: between(random, 5_000, 60_000), start: () => relay.blackhole(), end: () => relay.restore() }),
    () => ({ name: 'silent death, bytes lost', dead: true, ms: between(random, 5_000, 60_000), start: () => relay.blackhole({ lose: true }), end: () => relay.restore() }),
    () => {
      const direction = random() < 0.5 ? 'up' : 'down';
      return { name: `${direction} stalled`, dead: true, ms: between(random, 5_000, 40_000), start: () => relay.stall(direction), end: () => relay.restore() };
    },
    () => {
      const direction = random() < 0.5 ? 'up' : 'down';
      const delayMs = between(random, 500, 5_000);
      return { name: `${direction} slowed by ${delayMs} ms`, dead: false, ms: between(random, 10_000, 30_000), start: () => relay.stall(direction, { delayMs }), end: () => relay.restore() };
    },
    () => {
      const count = between(random, 1, 3);
      return {
        name: `upgrade refused ${count}x`,
        dead: true,
        ms: 0,
        start: () => {
          relay.refuseUpgrades(count);
          relay.drop();
        },
        end: () => {},
      };
    },
    () => {
      const kinds: StreamErrorKind[] = ['unknownChild', 'replaced', 'restartRequired', 'unavailable'];
      const kind = kinds[Math.floor(random() * kinds.length)]!;
      return { name: `stream error ${kind}`, dead: false, ms: 0, start: () => void server.streamError(kind), end: () => {} };
    },
    () => ({
      name: 'login refused without a reason',
      dead: false,
      ms: 0,
      start: () => {
        server.failLogins('withoutReason');
        void server.streamError('restartRequired');
      },
      end: () => {},
    }),
    () => ({ name: 'acks lost', dead: false, ms: between(random, 5_000, 30_000), start: () => server.setAcks('lose'), end: () => server.setAcks('now') }),
    () => {
      const delayMs = between(random, 1_000, 8_000);
      return { name: `acks late by ${delayMs} ms`, dead: false, ms: between(random, 10_000, 30_000), start: () => server.setAcks({ delayMs }), end: () => server.setAcks('now') };
    },
  ];
  return kinds[Math.floor(random() * kinds.length)]!();
}
