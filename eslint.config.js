import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layers from './src/server/layers.json' with { type: 'json' };

/** A folder of src/server may import only these others' files (src/server/layers.json). */
const serverFolderRules = [
  ...layers.platform.map((folder, i) => ({
    folder,
    forbidden: [...layers.platform.slice(i + 1), ...layers.features],
    message: `src/server/${folder} is platform: it imports only the platform below it (${layers.platform.slice(0, i).join(', ') || 'nothing'}), never a feature or the root.`,
  })),
  ...layers.features.map((folder) => ({
    folder,
    forbidden: layers.features.filter((other) => other !== folder),
    message: `src/server/${folder} is a feature: features never import each other; what several read lives in data/, what follows an event in reactions.ts.`,
  })),
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'data',
      'drizzle',
      'test-results',
      'playwright-report',
      'bench/results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Type-aware rules that catch real bugs here: a promise nobody awaits or handles, a promise where a callback's
  // result is ignored (an async event handler), an await of something that is not a promise.
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // The architecture's direction: shared imports nothing of server or web; server and web never import each other.
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/web/**', 'fastify*', 'react*', 'drizzle-orm*', 'pg'],
              message: 'src/shared is imported by both sides and imports neither.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/web/**'], message: 'The server does not import the web app.' }] },
      ],
    },
  },
  // The server's own direction (tested too: src/server/architecture.unit.test.ts), from a folder's own files and
  // from its subfolders' (`notifications/mail/`, where `../` is still the folder itself).
  ...serverFolderRules.flatMap(({ folder, forbidden, message }) =>
    [
      [`src/server/${folder}/*`, '../'],
      [`src/server/${folder}/*/**`, '../../'],
    ].map(([files, up]) => ({
      files: [files],
      ignores: ['**/*.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { group: ['**/web/**'], message: 'The server does not import the web app.' },
              { group: forbidden.map((other) => `${up}${other}/*`).concat([`${up}*.js`]), message },
            ],
          },
        ],
      },
    })),
  ),
  {
    files: ['src/web/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', 'drizzle-orm*', 'pg', 'fastify*'],
              message: 'The web app talks to the server over HTTP only.',
            },
          ],
        },
      ],
    },
  },
);
