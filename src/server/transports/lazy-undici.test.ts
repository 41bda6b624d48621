import { describe, expect, it, vi } from 'vitest';
import type { Dispatcher } from 'undici';
import { lazyDispatcher } from './lazy-undici.ts';

describe('lazyDispatcher', () => {
  it('makes its dispatcher on the first use, once, and hands every call to it', () => {
    const dispatch = vi.fn(() => true);
    const made = { dispatch, closed: false } as unknown as Dispatcher;
    const make = vi.fn(() => made);
    const lazy = lazyDispatcher(make);
    expect(make).not.toHaveBeenCalled();

    expect(lazy.dispatch({ path: '/', method: 'GET', origin: 'http://127.0.0.1' }, {} as Dispatcher.DispatchHandler)).toBe(true);
    expect(lazy.dispatch({ path: '/b', method: 'GET', origin: 'http://127.0.0.1' }, {} as Dispatcher.DispatchHandler)).toBe(true);
    expect(make).toHaveBeenCalledTimes(1);
    expect(dispatch).toHaveBeenCalledTimes(2);
    // Methods run on the made dispatcher, not on the stand-in.
    expect(dispatch.mock.contexts[0]).toBe(made);
    expect((lazy as unknown as { closed: boolean }).closed).toBe(false);
  });

  it('closes and destroys without making a dispatcher that was never used', async () => {
    const make = vi.fn(() => ({}) as Dispatcher);
    const lazy = lazyDispatcher(make);
    await lazy.close();
    await lazy.destroy();
    expect(make).not.toHaveBeenCalled();
  });

  it('closes the made dispatcher once it is in use', async () => {
    const close = vi.fn(async () => {});
    const lazy = lazyDispatcher(() => ({ dispatch: () => true, close }) as unknown as Dispatcher);
    lazy.dispatch({ path: '/', method: 'GET', origin: 'http://127.0.0.1' }, {} as Dispatcher.DispatchHandler);
    await lazy.close();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
