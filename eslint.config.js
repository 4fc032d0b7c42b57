import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import house from './scripts/lint/walls.js';
import uploadRegex, { UPLOAD_MAIN_THREAD_FILES, UPLOAD_MAIN_THREAD_IGNORES } from './scripts/lint/upload-regex.js';
import webApiUrls, { WEB_CLIENT_LAYER } from './scripts/lint/web-api-urls.js';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', '.tmp/**', 'drizzle/**', 'bench/.work/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      // control characters in regexes are how we refuse CR/LF and friends in input
      'no-control-regex': 'off',
    },
  },
  {
    // the walls between roots, layers and features (docs/architecture.md)
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.ts'],
    plugins: { house },
    rules: { 'house/walls': 'error' },
  },
  {
    // no regular expression over upload text on the request thread (issue 32, scripts/lint/upload-regex.js)
    files: UPLOAD_MAIN_THREAD_FILES,
    ignores: UPLOAD_MAIN_THREAD_IGNORES,
    plugins: { uploads: uploadRegex },
    rules: { 'uploads/no-upload-regex': 'error' },
  },
  {
    // no hand-written /api/ address in the web: calls go through the shared endpoint contracts (decision 34-04)
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: [...WEB_CLIENT_LAYER, '**/*.test.ts', '**/*.test.tsx'],
    plugins: { web: webApiUrls },
    rules: { 'web/no-api-url': 'error' },
  },
  {
    files: ['src/web/public/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', localStorage: 'readonly' } },
    rules: { '@typescript-eslint/no-unused-vars': 'off', 'no-empty': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
