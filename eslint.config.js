// @ts-check
import js from '@eslint/js'
import pluginVue from 'eslint-plugin-vue'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const coreMustStayPlainNode =
  'src-main/core/ must stay plain Node: it never imports Electron. ' +
  'Put the Electron glue in src-main/ (outside core/) and pass what core needs as arguments.'

export default defineConfig(
  globalIgnores([
    'out/',
    'dist/',
    'node_modules/',
    'test-results/',
    'playwright-report/',
    '.bench/',
    '.scratch/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,
  pluginVue.configs['flat/recommended'],

  {
    rules: {
      // A leading underscore marks a deliberately unused name.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  {
    files: ['**/*.vue'],
    languageOptions: {
      parserOptions: {
        parser: tseslint.parser,
        extraFileExtensions: ['.vue'],
        sourceType: 'module',
      },
    },
  },

  {
    files: ['src-renderer/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['src-main/**', 'src-preload/**', 'test/**', '*.{js,mjs,cjs,ts}'],
    languageOptions: { globals: globals.node },
  },

  {
    // Layering: the application core is plain Node, so it runs (and is tested)
    // without Electron. Any import of 'electron' there fails the build.
    files: ['src-main/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: coreMustStayPlainNode }],
          patterns: [{ group: ['electron/*'], message: coreMustStayPlainNode }],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportExpression[source.value=/^electron(\\u002F|$)/]",
          message: coreMustStayPlainNode,
        },
        {
          selector:
            "CallExpression[callee.name='require'][arguments.0.value=/^electron(\\u002F|$)/]",
          message: coreMustStayPlainNode,
        },
      ],
    },
  },

  {
    // Code the renderer may share (formatting, tier arithmetic) imports neither Node nor Electron.
    files: ['src-main/core/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(node:|electron$|electron/|fs$|path$|os$|http$|https$|crypto$|url$|util$|stream$|child_process$|better-sqlite3$|got$)',
              message: 'src-main/core/shared/ is shared with the renderer: no Node, Electron or main-process libraries.',
            },
          ],
        },
      ],
    },
  },
)
