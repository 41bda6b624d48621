import { defineConfig } from 'vitest/config';

// The widget is built from index.html into dist/, which the gateway serves. Vitest shares this file:
// unit tests are pure and fast; integration tests boot a gateway on a fresh database per file.
export default defineConfig({
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: ['src/**/*.int.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['src/**/*.int.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file boots its own gateway and database; two at a time fit the machine.
          maxWorkers: 2,
        },
      },
    ],
  },
});
