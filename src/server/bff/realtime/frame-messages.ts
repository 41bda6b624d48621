import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Static } from 'typebox';
import {
  clientEventPayloads,
  HandshakeAuth,
  maxRefusedMessages,
  realtimeErrors,
  type ClientEventName,
  type MessageRefused,
} from '../../../contract/realtime.ts';

/**
 * What frames send over socket.io is checked as an HTTP body is: against the contract's schema, strictly (a
 * number is not a string, nothing is coerced), before any handler sees it. Every listener of the hub is
 * registered through `guarded`, so that no handler's throw or rejection reaches the event loop: socket.io calls
 * listeners from its own callbacks, where nothing would catch it and the process would stop.
 */

export interface RealtimeLog {
  warn(obj: object, msg: string): void;
}

/** The part of a socket.io server socket these helpers use (typed sockets narrow `on` and `emit` per event). */
export interface ListeningSocket {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  disconnect(close?: boolean): unknown;
}

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, removeAdditional: false });
const compiled = new Map<object, ValidateFunction>();
const validatorOf = (schema: object): ValidateFunction => {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
};

/** The schema's complaints in the words of an HTTP validation error (`fields`), or null when `value` holds. */
export function problemsOf(schema: object, value: unknown, at: string): MessageRefused['fields'] | null {
  const validate = validatorOf(schema);
  if (validate(value)) return null;
  return (validate.errors ?? []).map((e: ErrorObject) => ({ field: `${at}${e.instancePath}`, message: e.message ?? 'is not valid' }));
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

/** The listener as socket.io should call it: a throw or a rejection is logged under `what`, never let out. */
export function guarded<A extends unknown[]>(log: RealtimeLog, what: string, listener: (...args: A) => unknown): (...args: A) => void {
  const heard = (err: unknown) => {
    try {
      log.warn({ err }, `realtime: ${what} failed`);
    } catch {
      // A log that cannot be written must not be what stops the process either.
    }
  };
  return (...args) => {
    try {
      const result = listener(...args);
      if (isThenable(result)) Promise.resolve(result).catch(heard);
    } catch (err) {
      heard(err);
    }
  };
}

/** The handshake's `auth` when it holds to the contract, else the refusal to give socket.io's `next`. */
export function checkHandshake(auth: unknown): { auth: HandshakeAuth } | { refusal: Error } {
  const problems = problemsOf(HandshakeAuth, auth, 'auth');
  if (!problems) return { auth: auth as HandshakeAuth };
  return { refusal: Object.assign(new Error(realtimeErrors.invalid), { data: { error: realtimeErrors.invalid, fields: problems } }) };
}

/** Refused messages per connection: past `maxRefusedMessages` the connection is ended. */
const refusedCounts = new WeakMap<object, number>();

/**
 * Listens for one of the contract's client events: the payload (the first argument; absent reads as null) is
 * checked against its schema, and a trailing function is the acknowledgement callback. A message that fails is
 * answered with `refused` (and through its acknowledgement when it asked for one) and goes no further.
 */
export function onClientEvent<E extends ClientEventName>(
  socket: ListeningSocket,
  event: E,
  log: RealtimeLog,
  handle: (payload: Static<(typeof clientEventPayloads)[E]>) => unknown,
): void {
  socket.on(
    event,
    guarded(log, event, (...args: unknown[]) => {
      const ack = typeof args.at(-1) === 'function' ? (args.pop() as (answer: unknown) => void) : undefined;
      const payload = args.length === 0 ? null : args[0];
      const problems =
        args.length > 1
          ? [{ field: '', message: `takes one argument, got ${args.length}` }]
          : problemsOf(clientEventPayloads[event], payload, '/0');
      if (!problems) return handle(payload as Static<(typeof clientEventPayloads)[E]>);
      const refusals = (refusedCounts.get(socket) ?? 0) + 1;
      refusedCounts.set(socket, refusals);
      if (refusals > maxRefusedMessages) {
        log.warn({ event, refusals }, 'realtime: a frame kept sending refused messages; its connection is ended');
        socket.disconnect(true);
        return undefined;
      }
      const refused: MessageRefused = { event, error: realtimeErrors.invalid, fields: problems.slice(0, 10) };
      socket.emit('refused', refused);
      ack?.(refused);
      return undefined;
    }),
  );
}

/**
 * socket.io reports a packet its decoder refuses, and an `error` event a client sends, as the socket's `error`
 * event (it keeps a listener of its own that does nothing, so neither throws): logged, so that a frame breaking the
 * protocol is seen.
 */
export function hearSocketErrors(socket: ListeningSocket, log: RealtimeLog): void {
  socket.on(
    'error',
    guarded(log, 'error listener', (err: unknown) => {
      // A client's own `error` event carries whatever it chose to send: only an Error the server made is logged whole.
      log.warn({ err: err instanceof Error ? err : { sentByClient: typeof err } }, 'realtime: a frame connection failed or sent an error event');
    }),
  );
}
