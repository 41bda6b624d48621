/** Megabytes, to two decimals. */
export const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 100) / 100;

/**
 * The process's memory once what can be collected is: three full collections (when run with --expose-gc) with
 * `pauseMs` between them, so that finalizers and the allocator's returns settle.
 */
export async function settledMemory(pauseMs: number): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return process.memoryUsage();
}
