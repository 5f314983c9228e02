// Lint for Berth: typescript-eslint with type information, plus the layering rules of src/modules/README.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Another module is reached only through its public files (service.ts, types.ts); the module list reads module.ts. */
const MODULE_PRIVATE = '^\\.\\./[a-z0-9-]+/(?!(service|types)$)[^/]+$';
const FOREIGN_PRIVATE = '(^|/)modules/[a-z0-9-]+/(?!(service|types|module)$)[^/]+$';
const BOUNDARY = 'Import another module only through its service.ts or types.ts.';

/**
 * `no-restricted-syntax` selectors, in groups. In flat config the last object that sets a rule for a
 * file replaces the earlier ones, so the objects below that set `no-restricted-syntax` cover
 * disjoint sets of files, each listing every group that applies to them.
 */
// Time is an input (src/lib/clock.ts): "now" comes from the context's clock, never the machine's.
const NOW_FROM_CLOCK = [
  {
    selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
    message: 'Read "now" from the context\'s clock (ctx.clock, lib/clock.ts), not Date.now().',
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: 'Read "now" from the context\'s clock (nowDate(ctx), lib/clock.ts), not new Date().',
  },
];
/** `x.insert(table)`, `x.update(table)`, `x.delete(table)`: a drizzle write of `table` (the identifier). */
// `db.insert(table)` / `update` / `delete`, or `insertRows(db, table, rows)` (db/client.ts).
const writeOf = (table) =>
  `CallExpression[callee.property.name=/^(insert|update|delete)$/][arguments.0.type='Identifier'][arguments.0.name='${table}'], ` +
  `CallExpression[callee.name='insertRows'][arguments.1.type='Identifier'][arguments.1.name='${table}']`;
// Availability alone writes allocations (GUIDE, "Selling"; issue 30): through its statement builders (availability/allocation-writes.ts).
const ALLOCATION_WRITES = [
  {
    selector: writeOf('allocations'),
    message: 'Availability alone writes allocations: use the statement builders of availability/service.ts (allocationInserts, releaseAllocationsOf, ...).',
  },
];
// The bookings module alone writes bookings (GUIDE, tables.ts: only the owning module writes its tables).
const BOOKING_WRITES = [
  { selector: writeOf('bookings'), message: 'The bookings module alone writes the bookings table: call a function of bookings/service.ts.' },
];
/** Development tooling and seed data (not in the production entry point) may write any table directly. */
const DEV_AND_SEED = ['src/dev/**/*.ts', 'src/seed/**/*.ts'];
/** Where the machine's clock is allowed (the clock itself, the Node CLI, the widget in the browser: it keeps the catalog's `now` by its offset). */
const OWN_CLOCK = ['src/lib/clock.ts', 'src/cli/**/*.ts', 'src/widget-app/**/*.ts'];
const restricted = (...groups) => ['error', ...groups.flat()];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.wrangler/',
      'dist/',
      'migrations/',
      'coverage/',
      'examples/**/node_modules/',
      'public/static/vendor/',
      'public/static/widget/app.js',
      'public/static/portal/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'max-len': ['error', { code: 160, ignoreUrls: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      // A catch that only swallows (probing a server that is not up yet, killing a process already gone) needs no body.
      'no-empty': ['error', { allowEmptyCatch: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Too noisy for D1 rows and zod-parsed JSON; the types at the edges are checked by zod instead.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'durable-objects/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: FOREIGN_PRIVATE, message: BOUNDARY }] }] },
  },
  {
    files: ['src/modules/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: MODULE_PRIVATE, message: BOUNDARY },
            { regex: FOREIGN_PRIVATE, message: BOUNDARY },
          ],
        },
      ],
    },
  },
  // no-restricted-syntax: disjoint sets of files, each with every group of selectors that applies to it (see NOW_FROM_CLOCK above).
  {
    files: ['src/**/*.ts', 'durable-objects/**/*.ts'],
    ignores: [...OWN_CLOCK, 'src/modules/availability/**/*.ts', 'src/modules/bookings/**/*.ts', ...DEV_AND_SEED],
    rules: { 'no-restricted-syntax': restricted(NOW_FROM_CLOCK, ALLOCATION_WRITES, BOOKING_WRITES) },
  },
  { files: OWN_CLOCK, rules: { 'no-restricted-syntax': restricted(ALLOCATION_WRITES, BOOKING_WRITES) } },
  { files: ['src/modules/availability/**/*.ts'], rules: { 'no-restricted-syntax': restricted(NOW_FROM_CLOCK, BOOKING_WRITES) } },
  { files: ['src/modules/bookings/**/*.ts'], rules: { 'no-restricted-syntax': restricted(NOW_FROM_CLOCK, ALLOCATION_WRITES) } },
  { files: DEV_AND_SEED, rules: { 'no-restricted-syntax': restricted(NOW_FROM_CLOCK) } },
  {
    files: ['src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(middleware|modules)(/|$)', message: 'lib/ is the lowest layer: it imports nothing from middleware/ or modules/.' }] },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'test/**/*.mjs', 'scripts/**/*.mjs', '*.mjs', '*.mts', '*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  { files: ['**/*.mjs', 'vitest.config.mts'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
  },
  // The booking widget's and /docs' browser scripts (public/, served as static assets): plain browser JavaScript.
  { files: ['public/**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        navigator: 'readonly',
        history: 'readonly',
        sessionStorage: 'readonly',
        localStorage: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        requestAnimationFrame: 'readonly',
        CustomEvent: 'readonly',
        Intl: 'readonly',
        crypto: 'readonly',
      },
    },
  },
);
