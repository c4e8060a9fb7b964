// @ts-check
import js from '@eslint/js'
import pluginVue from 'eslint-plugin-vue'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Node's modules and the libraries only the main process may load. */
const NODE_BUILTINS_AND_MAIN_LIBRARIES =
  '^(node:|fs$|fs/|path$|os$|http$|https$|net$|crypto$|url$|util$|stream$|events$|child_process$|worker_threads$|better-sqlite3$|got$|p-limit$)'
/** The same, and Electron. */
const NODE_OR_MAIN_PROCESS = `${NODE_BUILTINS_AND_MAIN_LIBRARIES.slice(0, -1)}|electron$|electron/)`

const coreMustStayPlainNode =
  'src-main/core/ must stay plain Node: it never imports Electron. ' +
  'Put the Electron glue in src-main/electron/ and pass what core needs as arguments.'

/**
 * The core's Electron ban as no-restricted-imports options. A later block that narrows a core
 * folder's imports replaces these options for its files (ESLint keeps the last block's), so
 * each such block starts from these.
 */
const CORE_NO_ELECTRON = {
  paths: [{ name: 'electron', message: coreMustStayPlainNode }],
  patterns: [{ group: ['electron/*'], message: coreMustStayPlainNode }],
}

/** The façade of the core: library.ts and the files it is split into (library-api.ts, ...). */
const FACADE = 'library(-[\\w-]+)?'

/**
 * What a transport (ipc/, web/, electron/) reaches the core through: the session, the façade, the
 * events and the host's client (with the messages, answers and launch between them), which stands
 * for the session in main. A pattern of core/ paths, for a negative lookahead.
 */
const TRANSPORT_VIEW_OF_CORE = `session|${FACADE}|events|host/(client|messages|answer|launch|host-main)`

/**
 * host-main.ts is the host process's entry (importing it starts a host): a transport takes its launch options' types only.
 * @type {import('eslint').Linter.RuleEntry}
 */
const HOST_MAIN_TYPES_ONLY = [
  'error',
  {
    patterns: [
      {
        regex: '^(\\.\\./)+core/host/host-main$',
        allowTypeImports: true,
        message: "core/host/host-main.ts starts the core's host when it loads: import its types only (import type).",
      },
    ],
  },
]

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
    // Type-aware rules: a promise nobody awaits or handles is a failure nobody sees.
    files: ['**/*.ts', '**/*.vue'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname, extraFileExtensions: ['.vue'] },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },

  {
    // Vitest fixtures must destructure their first argument, even when they need nothing from it.
    files: ['test/**'],
    rules: { 'no-empty-pattern': 'off' },
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
      'no-restricted-imports': ['error', CORE_NO_ELECTRON],
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
    // The renderer never sees Node or Electron: it reaches the main process through the preload
    // API only, and shares nothing of src-main but core/shared/.
    files: ['src-renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: NODE_OR_MAIN_PROCESS,
              message: 'src-renderer/ runs in a sandboxed page: no Node, Electron or main-process libraries; ask the preload API.',
            },
            {
              regex: '(^|/)src-main/(?!core/shared/)',
              message: 'src-renderer/ may share only src-main/core/shared/ with the main process; everything else goes through the preload API.',
            },
            {
              regex: '(^|/)src-main/core/shared/',
              message: 'src-renderer/ names the shared core @shared/ (one alias, set in electron.vite.config.ts, tsconfig.web.json and vitest.config.ts).',
            },
          ],
        },
      ],
    },
  },

  {
    // The state layer: screens and components reach the core through the stores (src-renderer/stores/),
    // which own each domain's state and its optimistic updates; never through api directly. (A later
    // block replaces the rule's options for these files, so the renderer's patterns are repeated.)
    files: ['src-renderer/components/**', 'src-renderer/views/**', 'src-renderer/App.vue'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: NODE_OR_MAIN_PROCESS,
              message: 'src-renderer/ runs in a sandboxed page: no Node, Electron or main-process libraries; ask the preload API.',
            },
            {
              regex: '(^|/)src-main/',
              message: 'src-renderer/ names the shared core @shared/; everything else goes through the preload API.',
            },
            {
              regex: '^(\\.\\./)+api$|^\\./api$',
              message: 'components and views use the stores (src-renderer/stores/), which call api: one owner for each piece of state.',
            },
          ],
        },
      ],
    },
  },

  {
    // The sandboxed preload can load nothing but electron and what it bundles: it imports only
    // Electron, its own files and the Node-free shared code (the contract, its schemas and types).
    files: ['src-preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: NODE_BUILTINS_AND_MAIN_LIBRARIES,
              message: 'src-preload/ is sandboxed: no Node modules or main-process libraries; it imports only electron and the IPC contract.',
            },
            {
              regex: '(^|/)src-main/(?!core/shared/)',
              message: 'src-preload/ imports only the Node-free shared code from src-main/ (core/shared/: the contract, its schemas and types).',
            },
          ],
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
            {
              regex: '^\\.\\./',
              message: 'src-main/core/shared/ is bundled into the preload and the renderer: it imports only its own files (and Node-free libraries).',
            },
          ],
        },
      ],
    },
  },

  // The core's own layers (README, Project layout): the cache under everything that fills it, the
  // CLI and the transports on the façade. Relative paths are what the code writes; the core has no alias.
  {
    // The cache is the bottom of the core: the client of the service, the sync, the downloads and
    // the façade are built on it, never the other way round.
    files: ['src-main/core/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: CORE_NO_ELECTRON.paths,
          patterns: [
            ...CORE_NO_ELECTRON.patterns,
            {
              regex: `^(\\.\\./)+(api|sync|downloads|${FACADE})(/|$)`,
              message:
                'src-main/core/db/ is the cache under the rest of the core: it imports neither api/, sync/, downloads/ nor the library; ' +
                'take what it needs as arguments, or move a shared shape to core/shared/.',
            },
          ],
        },
      ],
    },
  },

  {
    // The CLI is a user of the façade like the window: the library, its types (core/shared), its
    // events; besides those only the entry point's Node check and the data folder's check, which
    // run before any library opens, and what it shares with `npm run web` (command-line).
    files: ['src-main/core/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: CORE_NO_ELECTRON.paths,
          patterns: [
            ...CORE_NO_ELECTRON.patterns,
            {
              regex: `^\\.\\./(?!(${FACADE}|events|node-check|data-folders|command-line)$|shared/)`,
              message:
                'src-main/core/cli/ uses the core through its façade only: ../library (and its parts), ../shared/, ../events ' +
                '(and ../node-check, ../data-folders, ../command-line); the shapes it prints are in core/shared/types.ts.',
            },
          ],
        },
      ],
    },
  },

  {
    // The transports (the Electron IPC routing and the web bridge) reach the core through the
    // façade: the session and the library, core/shared, core/events. The session runs in the
    // core's own process, so what main holds of it is the host's client (host/client, with the
    // messages, answers and launch between them): never the host's own files, which would run the
    // core in main. Besides: the one containment check (contained-path), the version,
    // the data folder, and for web/main.ts, a command line itself, what it shares with the CLI
    // (command-line: exit codes, paths, the --base-url check, never core/cli/ itself), the entry's
    // Node check and the saved --base-url (settings).
    files: ['src-main/ipc/**', 'src-main/web/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                `^(\\.\\./)+core/(?!(${TRANSPORT_VIEW_OF_CORE}|` +
                'contained-path|version|data-folders|settings|node-check|command-line)$|shared/)',
              message:
                'src-main/ipc/ and src-main/web/ use the core through its façade: core/session, core/library, core/shared/, core/events, ' +
                "and the host's client (core/host/client, messages, answer, launch), which stands for the session in main.",
            },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': HOST_MAIN_TYPES_ONLY,
    },
  },

  {
    // The Electron glue (src-main/electron/) is a transport too: Electron itself, the IPC routing
    // (src-main/ipc/), and the core through its façade as ipc/ and web/ reach it (the session, the
    // library, core/shared, core/events, the host's client); besides those, what only the desktop
    // needs: the data folder, the log, the window's placement (core/window-state) and the host's
    // output (host/output). Never the core's internals (core/db, core/downloads, core/sync, ...).
    files: ['src-main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                `^(\\.\\./)+core/(?!(${TRANSPORT_VIEW_OF_CORE}|host/output|data-folders|log|window-state)$|shared/)`,
              message:
                'src-main/electron/ uses the core through its façade, as ipc/ and web/ do: core/session, core/library, core/shared/, ' +
                "core/events, the host's client (core/host/client, messages, answer, launch, output), and core/data-folders, log, window-state.",
            },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': HOST_MAIN_TYPES_ONLY,
    },
  },
)
