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

/**
 * The programs beside the core, and the process entries: the core is the library they use and
 * never imports one of them (the host's entry, core-host.ts, composes the core and the demo).
 */
const PROGRAMS = {
  regex: '^(\\.\\./)+(cli|demo|main-process|electron|web|launch|core-host|index)(/|$)',
  message:
    'src-main/core/ is the library the programs use (cli/, demo/, web/, electron/, main-process/, the entries): it never imports one of them; ' +
    'take what it needs as an argument (as the session takes startDemo).',
}

/** The core's own patterns, which every block narrowing a core folder starts from (ESLint keeps the last block's options). */
const CORE_PATTERNS = [...CORE_NO_ELECTRON.patterns, PROGRAMS]

/** A core folder that may not import the folders named: `below('db', ['api', 'sync'], why)`. */
function coreFolderBelow(folder, above, why) {
  return {
    files: [`src-main/core/${folder}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: CORE_NO_ELECTRON.paths,
          patterns: [...CORE_PATTERNS, { regex: `^(\\.\\./)+(${above.join('|')})(/|$)`, message: `src-main/core/${folder}/ ${why}` }],
        },
      ],
    },
  }
}

/**
 * What main (Electron's, or npm run web's) may take of the core: the messages and ports of its
 * channel to the core's host, the shared code, the events, the version, the containment check, and
 * the address guard (the links main hands to the browser obey the rule of the core's own requests).
 * Never the core's own work (db, sync, downloads, library, session, host): that runs in the host.
 */
const MAIN_VIEW_OF_CORE = 'host/(messages|port)|base/(events|version)|files/contained-path|api/address-guard'

/** The patterns of a folder that runs in main: the core as MAIN_VIEW_OF_CORE (and `extra`), no CLI, demo or host entry. */
function inMain(folder, extra, allowed) {
  return [
    {
      regex: `^(\\.\\./)+core/(?!(${MAIN_VIEW_OF_CORE}${extra ? `|${extra}` : ''})$|shared/)`,
      message: `src-main/${folder}/ runs in the main process: it reaches the core through its host (main-process/core-client) and takes only ${allowed} of core/.`,
    },
    {
      regex: '^(\\.\\./)+(cli|demo)(/|$)|^(\\.\\./)+core-host$',
      message: `src-main/${folder}/ runs in the main process: the CLI, the demo and the host's entry are programs of their own (the host starts the demo).`,
    },
  ]
}

export default defineConfig(
  globalIgnores([
    'out/',
    'dist/',
    'node_modules/',
    'test-results/',
    'playwright-report/',
    '.bench/',
    '.scratch/',
    // npm run coverage's report.
    'coverage/',
    // The config a build bundles for itself for a moment (electron.vite.config.ts.<time>-<hash>.mjs):
    // a lint that runs beside a build (npm test) would find it gone.
    '*.config.ts.*.mjs',
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
    // Layering: the application core is plain Node, so it runs (and is tested) without Electron,
    // and it is the library the programs use, never one of them.
    files: ['src-main/core/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: CORE_NO_ELECTRON.paths, patterns: CORE_PATTERNS }],
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

  // The core's own layers (README, Project layout), by folder: the helpers at the bottom (base, files,
  // startup), the cache on them, the service client, sync and downloads on the cache, the library (the
  // façade) on those, the session on the library, the host on the session. Relative paths are what the
  // code writes; the core has no alias.
  coreFolderBelow(
    'base',
    ['api', 'db', 'sync', 'downloads', 'library', 'session', 'host', 'files', 'startup'],
    'is the bottom of the core (events, the log, the version): it imports only the shared code and its own files.',
  ),
  coreFolderBelow(
    'files',
    ['api', 'db', 'sync', 'downloads', 'library', 'session', 'host', 'startup'],
    'holds the plain file helpers the rest is built on: it imports only base/, shared/ and its own files.',
  ),
  coreFolderBelow(
    'startup',
    ['api', 'db', 'sync', 'downloads', 'library', 'session', 'host'],
    "holds the entry points' checks (Node's version, the command line): it runs before any library opens.",
  ),
  coreFolderBelow(
    'db',
    ['api', 'sync', 'downloads', 'library', 'session', 'host'],
    'is the cache under the rest of the core: it imports neither api/, sync/, downloads/ nor the library; ' +
      'take what it needs as arguments, or move a shared shape to core/shared/.',
  ),
  coreFolderBelow('api', ['sync', 'downloads', 'library', 'session', 'host'], 'is the service client: the sync and the downloads use it, not the other way round.'),
  coreFolderBelow('sync', ['downloads', 'library', 'session', 'host'], 'fills the cache; the library assembles it, not the other way round.'),
  coreFolderBelow('downloads', ['sync', 'library', 'session', 'host'], 'runs the queue; the library assembles it, not the other way round.'),
  coreFolderBelow('library', ['session', 'host'], "is one catalogue's façade: the session and the host use it, not the other way round."),
  coreFolderBelow('session', ['host'], "is the app's session: the host runs it, not the other way round."),

  {
    // The CLI is a program that uses the core through its façade, like the window: the library, the
    // shared code, the events; besides those only the entry point's Node check, the data folder's
    // check (they run before any library opens) and what it shares with `npm run web` (command-line).
    files: ['src-main/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: CORE_NO_ELECTRON.paths,
          patterns: [
            ...CORE_NO_ELECTRON.patterns,
            {
              regex: '^\\.\\./core/(?!(library/(library|library-api)|base/events|startup/(node-check|command-line)|files/data-folders)$|shared/)',
              message:
                'src-main/cli/ uses the core through its façade only: core/library/library (and library-api), core/shared/, core/base/events ' +
                '(and core/startup/node-check, command-line, core/files/data-folders); the shapes it prints are in core/shared/types.ts.',
            },
            { regex: '^\\.\\./(?!core/)', message: 'src-main/cli/ is a program of its own: it imports the core, never another program.' },
          ],
        },
      ],
    },
  },

  {
    // The demo catalogue service is a program of its own, a stand-in for the remote service: it
    // shares only the Node-free shapes of the catalogue with the core, never its workings.
    files: ['src-main/demo/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: CORE_NO_ELECTRON.paths,
          patterns: [
            ...CORE_NO_ELECTRON.patterns,
            {
              regex: '^\\.\\./(?!core/shared/|core/startup/(node-check|stop-signals)$)',
              message: "src-main/demo/ is the service the app talks to: it shares only core/shared/ with the app (and its entry's Node check and Ctrl-C).",
            },
          ],
        },
      ],
    },
  },

  {
    // The same for the demo's own folders (audio/): the demo is one level up, the rest of src-main two.
    files: ['src-main/demo/*/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: CORE_NO_ELECTRON.paths,
          patterns: [
            ...CORE_NO_ELECTRON.patterns,
            {
              regex: '^\\.\\./\\.\\./(?!core/shared/|core/startup/node-check$)',
              message: "src-main/demo/ is the service the app talks to: it shares only core/shared/ with the app (and its entry's Node check).",
            },
          ],
        },
      ],
    },
  },

  {
    // What main runs under both transports: the core's client (the host's channel), the one entrance
    // of every call, the window channels, the event stream, the media and static files.
    files: ['src-main/main-process/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: inMain('main-process', '', 'the host\'s messages and port, the shared code, the events, the version, the containment check and the address guard') }] },
  },
  {
    // The web bridge: main-process/ over HTTP, and for web/main.ts a command line (what it shares with
    // the CLI is in core/startup/command-line, its Ctrl-C in core/startup/stop-signals), the saved --base-url (core/library/settings) and the data folder.
    files: ['src-main/web/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: inMain('web', 'startup/(command-line|node-check|stop-signals)|library/settings|files/data-folders', "what main-process/ takes, and the command line's checks and signals, the settings file and the data folder") },
      ],
    },
  },
  {
    // The Electron glue: main-process/ over Electron's IPC, and what only the desktop needs: the data
    // folder, the log, the window's placement.
    files: ['src-main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: inMain('electron', 'session/window-state|files/data-folders|base/log', "what main-process/ takes, and the data folder, the log and the window's placement") },
      ],
    },
  },
)
