import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const DATABASE_DRIVERS = ['better-sqlite3', 'pg', 'ioredis'].map((name) => ({
  name,
  message: 'Only the store (and ratelimit/ for Redis) speaks to a database driver (layers: domain → store).',
}));

const BACKEND_FOLDERS = {
  group: ['**/store/sqlite', '**/store/sqlite/**', '**/store/postgres', '**/store/postgres/**'],
  message: 'The domain speaks the Store interface (store/*.ts), never one backend (layers: domain → store).',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The layers run one way: cli → main → app → http → domain → store (docs/design.md §1, STYLE
  // item 21). These rules hold them by machine: a wrong-way import fails `npm run lint`. Each
  // block names the whole list for its files, since a later block's `no-restricted-imports`
  // replaces, not extends, an earlier one's.
  {
    files: ['packages/server/src/domain/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: DATABASE_DRIVERS, patterns: [BACKEND_FOLDERS] }] },
  },
  {
    files: ['packages/server/src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: DATABASE_DRIVERS,
          patterns: [
            {
              group: ['**/store', '**/store/**'],
              message: 'http/ reaches the store only through the domain (layers: http → domain → store).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/store/sqlite/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: DATABASE_DRIVERS.filter((d) => d.name !== 'better-sqlite3'),
          patterns: [{ group: ['**/postgres', '**/postgres/**'], message: 'A store backend never imports the other.' }],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/store/postgres/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: DATABASE_DRIVERS.filter((d) => d.name !== 'pg'),
          patterns: [{ group: ['**/sqlite', '**/sqlite/**'], message: 'A store backend never imports the other.' }],
        },
      ],
    },
  },
  {
    files: ['**/test/**/*.ts', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
