import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const src = fileURLToPath(new URL('./src', import.meta.url));
/** Every folder of src/features is a feature: a new one is fenced off from the others without editing this file. */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * docs/architecture.md's borders, as lint rules. They work on resolved paths (the `@/` alias and
 * relative imports resolve to the same file), so `../../features/x` cannot slip past a rule
 * written for `@/features/x`. Zones: `target` is the importing file, `from` what it may not import.
 */
const borders = [
  {
    target: './src/domain',
    from: ['./src/app', './src/features', './src/shared', './src/ui', './src/lib', './workers', './server', './scripts', './bench', './tests', './e2e'],
    message: 'src/domain imports nothing outside itself.',
  },
  {
    target: './src/ui',
    from: ['./src/app', './src/features', './src/shared', './src/lib', './workers', './server'],
    message: 'src/ui imports only src/domain and src/ui.',
  },
  {
    target: './src/lib',
    from: ['./src/app', './src/features', './src/shared', './src/ui', './workers', './server'],
    message: 'src/lib imports only src/domain and src/lib.',
  },
  {
    target: './src/shared',
    from: ['./src/app', './src/features', './server'],
    message: 'src/shared imports only src/domain, src/ui, src/lib and src/shared.',
  },
  {
    // The worker facades (shared/uploads, shared/media) start the workers and take their
    // comlink API types; nothing else of the web app talks to workers/ directly.
    target: ['./src/shared/!(uploads|media)/**', './src/shared/*.ts', './src/ui', './src/lib', './src/features', './src/app'],
    from: './workers',
    message: 'Only the worker facades in src/shared/uploads and src/shared/media import workers/.',
  },
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'Features do not import each other: move what several need to src/shared.',
  })),
  {
    target: './src/features',
    from: ['./src/app', './server'],
    message: 'Features import src/shared, src/ui, src/lib and src/domain; src/app composes them.',
  },
  {
    target: './src/app',
    from: './server',
    message: 'The web app does not import the server.',
  },
  {
    target: './workers',
    from: ['./src', './server'],
    except: ['./domain'],
    message: 'workers/ import src/domain and their own files only.',
  },
  {
    target: './server',
    from: ['./src', './workers'],
    except: ['./domain'],
    message: 'server/ imports src/domain and nothing else of src/.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist.*/**', 'node_modules/**', '.tmp/**', 'test-results/**', 'playwright-report/**', 'data/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x/no-cycle reads the imported files too: parse TypeScript, not only .js.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ alias: { '@': [src] }, extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: borders }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // Packages the layers may not use; the paths between layers are import-x/no-restricted-paths above.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/domain/**', 'src/lib/state.ts', 'src/lib/query.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'jotai', message: "Take atoms and hooks from '@/lib/state.ts', the one module that wraps jotai." },
            { name: '@tanstack/react-query', message: "Take query hooks from '@/lib/query.ts', the one module that wraps TanStack Query." },
          ],
        },
      ],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['react', 'react-dom', 'jotai', 'node:*'], message: 'src/domain is plain TypeScript: no React, no state library, no Node.' }] },
      ],
    },
  },
  {
    // Node runs these files as they are (type stripping): it knows no `@/` alias.
    files: ['server/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@/*'], message: 'Node resolves no alias: import src/domain by a relative path.' }] }] },
  },
  {
    // Services take plain arguments (the context's parts, the caller, ids, a logger), so a job, a
    // script or a test calls them without a request. (Repeats the server's alias rule: flat config
    // replaces a rule's options per file, it does not merge them.)
    files: ['server/services/**/*.ts', 'server/repositories/**/*.ts', 'server/billing/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@/*'], message: 'Node resolves no alias: import src/domain by a relative path.' }],
          paths: [
            {
              name: 'fastify',
              importNames: ['FastifyInstance', 'FastifyRequest', 'FastifyReply'],
              message: 'Services and repositories take plain arguments, not Fastify objects: the route unpacks the request.',
            },
          ],
        },
      ],
    },
  },
  {
    // Thin routes (docs/architecture.md): a route parses, authorizes and calls a service; SQL and
    // query building live in server/repositories.
    files: ['server/routes/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom|transaction)$/]',
          message: 'No queries in routes: move them to server/repositories and call them through a service.',
        },
        {
          selector: "TaggedTemplateExpression[tag.name='sql'], MemberExpression[object.name='sql']",
          message: 'No SQL in routes: move it to server/repositories.',
        },
        // Issue 33: access is declared, not hand-checked: a route names its `access` and its
        // `organizationParam`, and server/plugins/auth.ts decides (seesOrganization, hasAccess).
        {
          selector: "IfStatement[consequent.type='ThrowStatement'] CallExpression[callee.name=/^is(Staff|Customer|Manager)Role$/]",
          message: "No access checks by hand in routes: declare it in the route's config (`access`, `organizationParam`).",
        },
        {
          selector:
            "IfStatement[consequent.type='ThrowStatement'] BinaryExpression[operator=/^[!=]==$/]:not([right.type='Literal']) > MemberExpression[property.name='organizationId']",
          message: "No organization checks by hand in routes: declare `organizationParam` in the route's config (seesOrganization decides).",
        },
      ],
    },
  },
  {
    // Services, billing, the events bus and the store's credentials take their data through
    // server/repositories (issue 33): billing's SQL lives in server/repositories/billing-*.ts and
    // embedded-gateway.ts. A service may still open a transaction and hand it to repositories.
    // The demo seeds write their fixtures through server/repositories/demo-seed.ts.
    files: [
      'server/billing/**/*.ts',
      'server/services/**/*.ts',
      'server/events/**/*.ts',
      'server/storage/**/*.ts',
      'server/media/**/*.ts',
      'server/seed/**/*.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom)$/]',
          message: 'No queries here: move them to server/repositories and call them from here.',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql'], MemberExpression[object.name='sql']", message: 'No SQL here: move it to server/repositories.' },
      ],
    },
  },
  {
    files: ['workers/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', 'jotai'], message: 'Workers do not import UI.' }] }] },
  },
);
