import settings from './allocator-env.json' with { type: 'json' };

/**
 * The C allocator's settings the gateway runs with, read by glibc from the environment when a process starts (other C
 * libraries ignore them). Set by `npm start`'s preload (src/server/preload.js) and by the test and bench gateways. The values
 * are in allocator-env.json, which the preload reads before any TypeScript is loaded.
 *
 * `MALLOC_TRIM_THRESHOLD_`: glibc gives memory back to the system once this much is free at the top of its heap, and,
 * with any such setting made, stops raising its mmap threshold by itself. Left to itself it raises that threshold
 * after the first large block is freed, and from then on keeps the large blocks V8's optimising compiler takes and
 * frees for each function it compiles (the embedded database's WebAssembly, at start and under load): 40–80 MB
 * that no later collection gives back. With it, those blocks are mapped on their own and unmapped when freed.
 * Costs a system call per large block; no change was measured in the CPU per message (docs/benchmarks.md).
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = settings;
