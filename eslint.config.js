// Lint: typescript-eslint's recommended rules, plus the import boundaries of the architecture:
// widget → contract; bff → core → contract; http → core; storage, jobs and transports implement core's ports.
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

const server = (name) => `src/server/${name}/**`;

const elements = [
  { type: 'contract', pattern: 'src/contract/**', partialMatch: false },
  { type: 'core', pattern: server('core'), partialMatch: false },
  { type: 'storage', pattern: server('storage'), partialMatch: false },
  { type: 'jobs', pattern: server('jobs'), partialMatch: false },
  { type: 'transports', pattern: server('transports'), partialMatch: false },
  { type: 'http', pattern: server('http'), partialMatch: false },
  { type: 'bff', pattern: server('bff'), partialMatch: false },
  { type: 'testing', pattern: server('testing'), partialMatch: false },
  { type: 'composition', pattern: 'src/server' },
  { type: 'widget-feature', pattern: 'src/widget/features/*', partialMatch: false, capture: ['feature'] },
  { type: 'widget', pattern: 'src/widget/**', partialMatch: false },
];

const may = (from, to) => ({ from: { element: { type: from } }, allow: { to: { element: { types: { anyOf: to } } } } });

const policies = [
  { allow: { to: { module: { origin: 'external' } } } },
  { allow: { to: { module: { origin: 'core' } } } },
  may('contract', ['contract']),
  may('core', ['core', 'contract']),
  may('storage', ['storage', 'core', 'contract']),
  may('jobs', ['jobs', 'storage', 'core', 'contract']),
  may('transports', ['transports', 'core', 'contract']),
  may('http', ['http', 'core', 'contract']),
  may('bff', ['bff', 'core', 'contract']),
  may('composition', ['contract', 'core', 'storage', 'jobs', 'transports', 'http', 'bff', 'composition']),
  may('testing', ['contract', 'core', 'storage', 'jobs', 'transports', 'http', 'bff', 'composition', 'testing']),
  may('widget', ['widget', 'widget-feature', 'contract']),
  {
    from: { element: { type: 'widget-feature' } },
    allow: { to: { element: { types: { anyOf: ['widget', 'contract'] } } } },
  },
  {
    from: { element: { type: 'widget-feature', captured: { feature: '{{ from.captured.feature }}' } } },
    allow: { to: { element: { type: 'widget-feature', captured: { feature: '{{ from.captured.feature }}' } } } },
  },
];

const serverElements = ['contract', 'core', 'storage', 'jobs', 'transports', 'http', 'bff', 'composition', 'testing'];

/** Packages that only the adapters may touch: the domain stays free of I/O frameworks. */
const infrastructure = ['fastify', 'fastify-*', '@fastify/*', 'kysely', 'pg', 'pg-boss', '@electric-sql/*', 'ioredis', 'socket.io', 'socket.io-*'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'bench/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/include': ['src/**/*'],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies,
        },
      ],
    },
  },
  {
    // Tests assemble real parts: they may reach any server element, the test harness included.
    files: ['src/server/**/*.test.ts'],
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'disallow', policies: [...policies, { allow: { to: { element: { types: { anyOf: serverElements } } } } }] },
      ],
    },
  },
  {
    files: ['src/server/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: infrastructure, message: 'core declares ports; adapters implement them' }] }],
    },
  },
  {
    // The contract's own tests may use the test runner; the contract itself ships with the schema library alone.
    files: ['src/contract/**/*.ts'],
    ignores: ['src/contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!typebox$|\\./)', message: 'the contract depends on the schema library only' }] },
      ],
    },
  },
);
