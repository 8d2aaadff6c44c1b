import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = ['auth', 'projects', 'project', 'library', 'settings', 'misc', 'dashboard', 'customers', 'editors', 'onboarding', 'admin-project', 'organization', 'admin-settings'];

/** ARCHITECTURE §2 borders, as lint rules. */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tmp/**', 'test-results/**', 'playwright-report/**', 'data/**'] },
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
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/*', '../*/**', '!../domain/**', 'react', 'react-dom', 'node:*'], message: 'src/domain imports nothing outside itself.' }] }],
    },
  },
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: FEATURES.filter((f) => f !== feature).map((f) => `@/features/${f}/**`), message: 'Features do not import each other.' }] },
      ],
    },
  })),
  {
    files: ['workers/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@/features/*', '@/app/*', '@/ui/*', 'react', 'react-dom'], message: 'Workers do not import UI.' }] }] },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/app/**', '**/src/features/**', '**/src/ui/**', '**/src/lib/**', '@/*'], message: 'The server imports src/domain and nothing else from src/.' }] },
      ],
    },
  },
);
