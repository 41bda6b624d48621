import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/**
 * A CommonJS package, loaded when first asked for rather than when the gateway starts: for the libraries only some
 * set-ups use (the Redis client, the HTTP client of the live platforms and the webhooks), so the embedded default,
 * which uses neither, does not hold their code and objects (a few MB each). Synchronous, so a constructor can still
 * be called where it was.
 */
export function packageOnFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(name) as T);
}
