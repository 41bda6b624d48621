/**
 * Messages a hostile frame could send over socket.io, for the realtime fuzz. Everything here is wrong for every
 * client event of the contract (each takes one stream position or null), and survives socket.io's own encoding
 * as sent: NaN, Infinity and -0 are left out because JSON turns them into valid values (null, 0). Nesting sent
 * through socket.io-client stays within what its own recursive binary check can walk; deeper nesting goes as a raw
 * packet (`malformedPackets`).
 */

export interface HostileArguments {
  label: string;
  args: unknown[];
  /** Larger than a socket.io message may be: the transport ends the connection rather than the event being refused. */
  oversized?: boolean;
}

const hostileKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'toJSON', 'then', 'hasOwnProperty', 'length'];

/** A nested array `depth` deep, built without recursion. */
function nestedArray(depth: number): unknown {
  let value: unknown = [1];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function nestedObject(depth: number, key: string): unknown {
  let value: unknown = { [key]: 1 };
  for (let i = 0; i < depth; i++) value = { [key]: value };
  return value;
}

/** A value drawn from `random`: objects with hostile keys, out-of-range numbers, strings, arrays. Never a valid position. */
function randomHostile(random: () => number, depth = 0): unknown {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const kind = depth > 3 ? pick(['number', 'string', 'bool'] as const) : pick(['object', 'array', 'number', 'string', 'bool'] as const);
  switch (kind) {
    case 'object': {
      // Built from JSON text, so that `__proto__` is an own key as a parsed message has it, not a prototype.
      const entries = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${JSON.stringify(pick(hostileKeys))}:${JSON.stringify(randomHostile(random, depth + 1))}`);
      return JSON.parse(`{${entries.join(',')}}`) as unknown;
    }
    case 'array':
      return Array.from({ length: Math.floor(random() * 4) }, () => randomHostile(random, depth + 1));
    case 'number':
      return pick([-1, -(2 ** 53), 2 ** 53 + 2, 1e300, -1e300, 0.5, 123.25, -0.0001]);
    case 'string':
      return pick(['', '0', '12', '1e3', 'NaN', '__proto__', '\u0000', '\ud800', 'x'.repeat(1 + Math.floor(random() * 5000))]);
    case 'bool':
      return random() < 0.5;
  }
}

/** The fixed hostile cases, then `randomCount` drawn from the seed. */
export function hostileArguments(random: () => number, randomCount = 12): HostileArguments[] {
  const fixed: HostileArguments[] = [
    { label: 'toString object', args: [{ toString: 1 }] },
    { label: 'valueOf object', args: [{ valueOf: 1 }] },
    { label: 'toString and valueOf objects', args: [{ toString: { valueOf: 1 }, valueOf: { toString: 1 } }] },
    { label: '__proto__ key', args: [JSON.parse('{"__proto__":{"polluted":true,"toString":1}}')] },
    { label: 'constructor.prototype keys', args: [{ constructor: { prototype: { polluted: true } } }] },
    { label: 'deeply nested arrays', args: [nestedArray(1_000)] },
    { label: 'deeply nested __proto__ objects', args: [JSON.parse(JSON.stringify(nestedObject(500, 'x')).replaceAll('"x"', '"__proto__"'))] },
    { label: 'huge string', args: ['9'.repeat(900_000)] },
    { label: 'string over the message size', args: ['x'.repeat(1_100_000)], oversized: true },
    { label: 'negative position', args: [-1] },
    { label: 'fractional position', args: [1.5] },
    { label: 'position past 2^53', args: [2 ** 53 + 2] },
    { label: 'position 1e300', args: [1e300] },
    { label: 'numeric string', args: ['12'] },
    { label: 'boolean', args: [true] },
    { label: 'empty object', args: [{}] },
    { label: 'array of a position', args: [[5]] },
    { label: 'binary attachment', args: [Buffer.from([0, 1, 2, 255])] },
    { label: 'object holding binary', args: [{ after: Buffer.alloc(64, 7), toString: Buffer.from('x') }] },
    { label: 'a valid position and extra arguments', args: [0, { toString: 1 }, Buffer.from('extra')] },
  ];
  const drawn = Array.from({ length: randomCount }, (_, i) => ({ label: `seeded #${i}`, args: [randomHostile(random)] }));
  return [...fixed, ...drawn];
}

/** Event names no frame may send: names of the server's own events, of object internals, of EventEmitter's `error`. */
export const unknownEventNames = ['error', 'caught_up', 'event', 'refused', 'session_ended', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'catch_up ', 'x'.repeat(10_000)];

/**
 * Raw socket.io packets (engine.io messages) that socket.io's decoder refuses, or that name what a client may not
 * send: sent below socket.io-client, as a hostile client would.
 */
export const malformedPackets = [
  '42[',
  '42{"toString":1}',
  '42[1,2]',
  '42["disconnect"]',
  '42["newListener","x"]',
  '42["removeListener","catch_up"]',
  '42["error",{"toString":1}]',
  '421["catch_up",{"valueOf":1}]',
  '451-["catch_up",{"_placeholder":true,"num":99}]',
  '499999999-["catch_up",{"_placeholder":true,"num":0}]',
  '430[]',
  '44{"message":"x"}',
  '40/nowhere,',
  '9',
  `42${'['.repeat(200_000)}`,
];

export interface HostileHandshake {
  label: string;
  auth: object;
}

/** Handshake `auth` objects around a real token that are still wrong. */
export function hostileHandshakes(token: string, random: () => number): HostileHandshake[] {
  return [
    { label: 'token as a toString object', auth: { token: { toString: () => token } } },
    { label: 'token in an array', auth: { token: [token] } },
    { label: 'no token', auth: {} },
    { label: 'huge token', auth: { token: 'x'.repeat(200_000) } },
    { label: 'after as a toString object', auth: { token, after: { toString: 1 } } },
    { label: 'after as a valueOf object', auth: { token, after: { valueOf: 1 } } },
    { label: 'negative after', auth: { token, after: -1 } },
    { label: 'after 1e300', auth: { token, after: 1e300 } },
    { label: 'after as text', auth: { token, after: '5' } },
    { label: 'after as binary', auth: { token, after: Buffer.from([1]) } },
    { label: '__proto__ holding the token', auth: JSON.parse(`{"__proto__":{"token":${JSON.stringify(token)}}}`) as object },
    { label: 'seeded after', auth: { token, after: randomHostile(random) } },
  ];
}
