import type { EnvelopeOf } from '../../contract/envelope.ts';
import type { Clock } from '../core/ports.ts';

/** Wraps a result in the interface's envelope. */
export const envelope = <T>(clock: Clock, data: T): EnvelopeOf<T> => ({
  data,
  meta: { timestamp: Math.floor(clock.now().getTime() / 1000) },
});
