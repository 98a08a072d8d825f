// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Problems clients see are error classes with a stable code, declared in the errors files only. */
const noNewApiError = {
  selector: "NewExpression[callee.name='ApiError']",
  message: "Throw an error class from src/lib/errors.ts or the area's errors.ts instead of a new ApiError(…).",
};

export default tseslint.config(
  { ignores: ['node_modules/', 'generated/', '.data/', '.tmp/', 'dist/'] },
  js.configs.recommended,
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // A promise nobody awaits loses its error and its ordering; mark the intended ones with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // Runtime import cycles leave a module's bindings undefined while it loads (type-only imports are fine).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // A variable a callback reads before its one assignment (a server's handler and the server) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/lib/errors.ts', 'src/**/errors.ts'],
    rules: {
      'no-restricted-syntax': ['error', noNewApiError],
    },
  },
  {
    // A handler hands the caller's whole principal on: what resolves an id checks it against a restricted key's
    // profiles, which an owner id alone cannot (issue 25). The session-only areas act for the owner as a whole.
    files: ['src/modules/*/handlers.ts'],
    ignores: ['src/modules/{auth,keys,billing}/handlers.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        noNewApiError,
        {
          selector: "MemberExpression[property.name='ownerId']",
          message:
            "Pass the principal (principalOf(request)) on, not its ownerId: what resolves ids checks them against the key's profiles.",
        },
      ],
    },
  },
  {
    // The sandbox is plugged in at the composition root alone: the rest of the service finds it in its configuration.
    // src/main.ts starts a first start's sandbox keys before src/boot.ts has loaded.
    files: ['src/**/*.ts'],
    ignores: ['src/sandbox/**', 'src/boot.ts', 'src/main.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './src',
              from: './src/sandbox',
              message: "Only src/boot.ts imports the sandbox; it gives the service its settings through the part's standIn.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'scripts/bench/**/*.ts'],
    // chai's assertions are property reads (`expect(x).to.exist`).
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  prettier,
);
