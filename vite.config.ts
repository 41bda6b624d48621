import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vitest/config';
import { bridgeChecks } from './src/widget/lib/bridge-checks.build.ts';
import { emojiData } from './src/widget/lib/emoji-data.build.ts';

/**
 * The live bots' driver suites (a platform's emulator on one side, the HTTP face on the other) store what they
 * learn through the same repositories as every other suite; they run on the embedded database only. Their races
 * stay in both runs, as does everything about sessions, storage, jobs and webhooks.
 */
const botDriverSuites = [
  'src/server/http/live-{avito,instagram,maxbot,telegram}*.int.test.ts',
  'src/server/http/live-vk{,-callbacks,-refresh,-sends}.int.test.ts',
  'src/server/http/live-hook-refresh.int.test.ts',
  'src/server/http/live-whatsapp{,-choice,-messages,-numbers,-templates,-template-submission}.int.test.ts',
];

/** The integration suite, run once per database: PGlite always, PostgreSQL when TEST_DATABASE_URL names a server. */
const integration = (database: string, env: Record<string, string>, groupOrder: number, exclude: string[] = []) => ({
  extends: true as const,
  test: {
    name: `integration:${database}`,
    include: ['src/**/*.int.test.ts'],
    exclude: ['**/node_modules/**', ...exclude],
    env,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file boots its own gateway and database; two at a time fit the machine.
    maxWorkers: 2,
    sequence: { groupOrder },
  },
});

// The widget is built from index.html into dist/, which the gateway serves. Vitest shares this file:
// unit tests are pure and fast; integration tests boot a gateway on a fresh database per file.
export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      // Everything the frame loads at start stays in one chunk: left to itself the bundler splits what the entry shares
      // with the lazy screens into six small chunks, and their requests cost the frame ~12 ms before it is ready.
      output: { codeSplitting: { groups: [{ name: 'frame', tags: ['$initial'] }] } },
      // TanStack Query marks its modules "use client" for server-rendering frameworks; a plain client bundle has no use for it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  // The widget's own imports start at its root (`@/lib/…`) rather than climbing folders.
  resolve: { alias: { '@/': fileURLToPath(new URL('./src/widget/', import.meta.url)) } },
  plugins: [tailwindcss(), bridgeChecks(), emojiData(['en', 'ru', 'es', 'pt'])],
  // public/ holds the demo CRM and the sandbox phone, which the gateway serves itself: not part of the widget.
  publicDir: false,
  test: {
    // mtcute's test client imports the library's JSON schema without an import attribute: Vite transforms it.
    server: { deps: { inline: ['@mtcute/test'] } },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: ['src/**/*.int.test.ts'], sequence: { groupOrder: 0 } },
      },
      // POSTGRES_SUITE tells the PGlite run that the PostgreSQL run follows (slow crash tests run there only).
      integration('pglite', { TEST_DATABASE_URL: '', POSTGRES_SUITE: process.env.TEST_DATABASE_URL ? '1' : '' }, 1),
      ...(process.env.TEST_DATABASE_URL ? [integration('postgres', {}, 2, botDriverSuites)] : []),
    ],
  },
});
