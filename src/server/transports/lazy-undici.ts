import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { packageOnFirstUse } from '../core/on-first-use.ts';

/** undici, loaded when a live transport first makes a call of its own: the sandbox's channels make none. */
export const undici = packageOnFirstUse<typeof Undici>('undici');

/**
 * A dispatcher made on its first use. undici's calls only dispatch through it (and close it), so the agent, and
 * undici with it, is made when the first request goes out, not when the transports are set up.
 */
export function lazyDispatcher(make: () => Dispatcher): Dispatcher {
  let made: Dispatcher | undefined;
  const unused = { close: async () => {}, destroy: async () => {} } as Record<PropertyKey, unknown>;
  return new Proxy({} as Dispatcher, {
    get(_target, key) {
      if (!made && key in unused) return unused[key];
      made ??= make();
      const value = Reflect.get(made, key, made) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(made) : value;
    },
  });
}
