import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The layering rules from eslint.config.js: src-main/core/ is plain Node, the renderer and the
// preload see neither Node nor the main process, and the core's own layers: the cache under the
// rest, the CLI, the transports (ipc/, web/) and the Electron glue (electron/) on the façade, the shared code on nothing. Linted as text at paths that need not exist, so
// without the type-aware rules (they need a file TypeScript knows); those are tested apart below.
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({
  cwd: projectRoot,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
})

async function electronImportErrors(code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter(
    (message) =>
      message.severity === 2 &&
      (message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax'),
  )
}

const importsElectron = "import { app } from 'electron'\nexport const appName = app.getName()\n"

describe('core must stay plain Node', () => {
  it("reports an import of 'electron' under src-main/core/", async () => {
    const errors = await electronImportErrors(importsElectron, 'src-main/core/x.ts')
    expect(errors).toHaveLength(1)
    expect(errors[0]?.message).toMatch(/plain Node/)
  })

  it.each([
    ['a subpath import', "import { app } from 'electron/main'\nexport const appName = app.getName()\n"],
    ['a type-only import', "import type { App } from 'electron'\nexport type Shell = App\n"],
    ['a dynamic import', "export const load = () => import('electron')\n"],
    ['a require call', "export const electron: unknown = require('electron')\n"],
  ])('reports %s under src-main/core/', async (_name, code) => {
    const errors = await electronImportErrors(code, 'src-main/core/db/connection.ts')
    expect(errors.length).toBeGreaterThan(0)
  })

  it("allows 'electron' in the entry point and the Electron glue (src-main/index.ts, src-main/electron/)", async () => {
    expect(await electronImportErrors(importsElectron, 'src-main/index.ts')).toEqual([])
    expect(await electronImportErrors(importsElectron, 'src-main/electron/bootstrap.ts')).toEqual([])
  })

  it("does not restrict imports of names that only start with 'electron'", async () => {
    const code = "import { build } from 'electron-vite'\nexport { build }\n"
    expect(await electronImportErrors(code, 'src-main/core/x.ts')).toEqual([])
  })
})

describe('the shared folder', () => {
  it('may not import Node or Electron, since the renderer shares it', async () => {
    for (const code of [`import fs from 'node:fs'\nexport const x = fs`, `import path from 'path'\nexport const x = path`, `import { app } from 'electron'\nexport const x = app`]) {
      const [result] = await eslint.lintText(code, { filePath: 'src-main/core/shared/x.ts' })
      expect(result!.messages.some((message) => message.ruleId === 'no-restricted-imports'), code).toBe(true)
    }
    const [clean] = await eslint.lintText(`export const twice = (n: number): number => n * 2\n`, { filePath: 'src-main/core/shared/x.ts' })
    expect(clean!.messages).toEqual([])
  })
})

async function restrictedImports(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)
}

describe('the renderer', () => {
  it.each([
    ["import fs from 'node:fs'\nexport const x = fs"],
    ["import { ipcRenderer } from 'electron'\nexport const x = ipcRenderer"],
    ["import Database from 'better-sqlite3'\nexport const x = Database"],
    ["import { openLibrary } from '../src-main/core/library/library'\nexport const x = openLibrary"],
  ])('may not import %s', async (code) => {
    expect(await restrictedImports(code, 'src-renderer/stores/x.ts')).toHaveLength(1)
  })

  it('may import the shared core (as @shared) and the preload API types', async () => {
    const code = "import { formatBytes } from '@shared/format'\nimport type { BridgeApi } from '../src-preload/api'\nexport const x = formatBytes\nexport type Y = BridgeApi\n"
    expect(await restrictedImports(code, 'src-renderer/x.ts')).toEqual([])
  })

  it('names the shared core by its alias, not by climbing into src-main', async () => {
    const code = "import { formatBytes } from '../src-main/core/shared/format'\nexport const x = formatBytes\n"
    expect(await restrictedImports(code, 'src-renderer/x.ts')).toHaveLength(1)
  })
})

describe('the state layer', () => {
  it.each([
    ['src-renderer/components/downloads/x.ts', "import { api } from '../../api'\nexport const x = api"],
    ['src-renderer/views/x.ts', "import { api } from '../api'\nexport const x = api"],
  ])('keeps %s from calling api: components and views use the stores', async (filePath, code) => {
    expect(await restrictedImports(code, filePath)).toHaveLength(1)
  })

  it('lets a store call api, and a component use a store', async () => {
    expect(await restrictedImports("import { api } from '../api'\nexport const x = api\n", 'src-renderer/stores/x.ts')).toEqual([])
    const component = "import { useDownloadsStore } from '../../stores/downloads'\nimport { formatBytes } from '@shared/format'\nexport const x = [useDownloadsStore, formatBytes]\n"
    expect(await restrictedImports(component, 'src-renderer/components/downloads/x.ts')).toEqual([])
  })

  it('still keeps Node and the main process out of components', async () => {
    expect(await restrictedImports("import fs from 'node:fs'\nexport const x = fs\n", 'src-renderer/components/x.ts')).toHaveLength(1)
  })
})

describe('the preload', () => {
  it.each([
    ["import fs from 'node:fs'\nexport const x = fs"],
    ["import got from 'got'\nexport const x = got"],
    ["import { openLibrary } from '../src-main/core/library/library'\nexport const x = openLibrary"],
  ])('may not import %s', async (code) => {
    expect(await restrictedImports(code, 'src-preload/x.ts')).toHaveLength(1)
  })

  it('may import electron and the contract (Node-free, in core/shared)', async () => {
    const code =
      "import { contextBridge } from 'electron'\nimport { CHANNELS, type Tagged } from '../src-main/core/shared/contract'\n" +
      "export const x = [contextBridge, CHANNELS]\nexport type Y = Tagged<number>\n"
    expect(await restrictedImports(code, 'src-preload/x.ts')).toEqual([])
  })

  it('may not import what main routes calls with (it pulls in the core)', async () => {
    expect(await restrictedImports("import { createDispatch } from '../src-main/main-process/dispatch'\nexport const x = createDispatch", 'src-preload/x.ts')).toHaveLength(1)
    expect(await restrictedImports("import { CoreClient } from '../src-main/main-process/core-client'\nexport const x = CoreClient", 'src-preload/x.ts')).toHaveLength(1)
  })
})

describe('the shared code', () => {
  it('imports only its own files: the preload and the renderer bundle it', async () => {
    expect(await restrictedImports("import { openLibrary } from '../library/library'\nexport const x = openLibrary", 'src-main/core/shared/x.ts')).toHaveLength(1)
    expect(await restrictedImports("import { CONTRACT } from './contract'\nexport const x = CONTRACT", 'src-main/core/shared/x.ts')).toEqual([])
  })

  it.each([
    ["import { Emitter } from '../base/events'\nexport const x = Emitter"],
    ["import type { Database } from '../db/connection'\nexport type X = Database"],
    ["import { createDispatch } from '../../main-process/dispatch'\nexport const x = createDispatch"],
  ])('may not import %s', async (code) => {
    expect(await restrictedImports(code, 'src-main/core/shared/x.ts')).toHaveLength(1)
  })
})

/** A line that imports `name` from `from`, and uses it. */
const importing = (from: string, name = 'x'): string => `import { ${name} } from '${from}'\nexport const y = ${name}\n`

describe("the core's folders", () => {
  it.each([
    ['src-main/core/db/x.ts', '../api/client'],
    ['src-main/core/db/x.ts', '../api/index'],
    ['src-main/core/db/x.ts', '../sync/sync'],
    ['src-main/core/db/x.ts', '../downloads/manager'],
    ['src-main/core/db/x.ts', '../library/library'],
    ['src-main/core/db/x.ts', '../library/library-api'],
    ['src-main/core/db/migrations/x.ts', '../../api/schemas'],
    ['src-main/core/api/x.ts', '../sync/sync'],
    ['src-main/core/sync/x.ts', '../downloads/manager'],
    ['src-main/core/downloads/x.ts', '../library/library'],
    ['src-main/core/library/x.ts', '../session/session'],
    ['src-main/core/session/x.ts', '../host/writer'],
    ['src-main/core/base/x.ts', '../files/folders'],
    ['src-main/core/files/x.ts', '../db/connection'],
    ['src-main/core/startup/x.ts', '../library/library'],
  ])('%s may not import %s: each folder stands on those below it', async (filePath, from) => {
    expect(await restrictedImports(importing(from), filePath)).toHaveLength(1)
  })

  it.each([
    ['src-main/core/host/x.ts', '../../demo/index'],
    ['src-main/core/session/x.ts', '../../cli/main'],
    ['src-main/core/library/x.ts', '../../main-process/core-client'],
    ['src-main/core/db/x.ts', '../../web/app'],
    ['src-main/core/host/x.ts', '../../core-host'],
  ])('%s may not import %s: the core never imports a program', async (filePath, from) => {
    expect(await restrictedImports(importing(from), filePath)).toHaveLength(1)
  })

  it('reports a type-only import and a re-export too', async () => {
    expect(await restrictedImports("import type { ListArtist } from '../api/index'\nexport type X = ListArtist\n", 'src-main/core/db/x.ts')).toHaveLength(1)
    expect(await restrictedImports("export type { Download } from '../downloads/manager'\n", 'src-main/core/db/x.ts')).toHaveLength(1)
  })

  it('may import its own files, the shared code and the folders below it', async () => {
    const code = importing('./statements', 'statement') + importing('../shared/urls', 'catalogueKey') + importing('../files/folders', 'ensureFolder')
    expect(await restrictedImports(code, 'src-main/core/db/x.ts')).toEqual([])
    expect(await restrictedImports(importing('./0001-initial', 'initial'), 'src-main/core/db/migrations/index.ts')).toEqual([])
    expect(await restrictedImports(importing('../session/session') + importing('../library/library', 'z'), 'src-main/core/host/x.ts')).toEqual([])
  })

  it('still may not import Electron (the rule for the whole core holds in every folder)', async () => {
    for (const folder of ['db', 'api', 'sync', 'downloads', 'library', 'session', 'host', 'base', 'files', 'startup']) {
      expect(await restrictedImports(importsElectron, `src-main/core/${folder}/x.ts`), folder).toHaveLength(1)
    }
  })
})

describe('the CLI (cli/)', () => {
  it.each([
    ['../core/db/artists'],
    ['../core/downloads/manager'],
    ['../core/sync/sync'],
    ['../core/api/client'],
    ['../core/session/session'],
    ['../core/host/host'],
    ['../demo/index'],
    ['../main-process/dispatch'],
  ])('may not import %s: it uses the façade only', async (from) => {
    expect(await restrictedImports(importing(from), 'src-main/cli/x.ts')).toHaveLength(1)
  })

  it('may import the façade, the shared code, the events and its own files', async () => {
    for (const from of [
      '../core/library/library',
      '../core/library/library-api',
      '../core/shared/types',
      '../core/base/events',
      './print',
      '../core/startup/node-check',
      '../core/files/data-folders',
      '../core/startup/command-line',
    ]) {
      expect(await restrictedImports(importing(from), 'src-main/cli/x.ts'), from).toEqual([])
    }
  })

  it('still may not import Electron', async () => {
    expect(await restrictedImports(importsElectron, 'src-main/cli/x.ts')).toHaveLength(1)
  })
})

describe('the demo catalogue service (demo/)', () => {
  it.each([['../core/db/artists'], ['../core/library/library'], ['../cli/main'], ['../core/api/schemas']])('may not import %s: it stands for the remote service', async (from) => {
    expect(await restrictedImports(importing(from), 'src-main/demo/x.ts')).toHaveLength(1)
  })

  it('shares the shared shapes only', async () => {
    expect(await restrictedImports(importing('../core/shared/catalogue') + importing('./catalogue', 'z'), 'src-main/demo/x.ts')).toEqual([])
  })
})

describe('what runs in main (main-process/, web/, electron/)', () => {
  const MAIN_FOLDERS = ['src-main/main-process/x.ts', 'src-main/web/x.ts', 'src-main/electron/x.ts']

  it.each([
    ['../core/db/connection'],
    ['../core/api/client'],
    ['../core/sync/service'],
    ['../core/downloads/manager'],
    ['../core/library/queries'],
    ['../core/library/library'],
    ['../core/session/session'],
    ['../core/host/host'],
    ['../core/host/writer'],
    ['../core/host/query-handlers'],
    ['../demo/index'],
    ['../cli/main'],
    ['../cli/options'],
    ['../core-host'],
  ])('may not import %s: the core runs in its host, and main reaches it through the client', async (from) => {
    for (const filePath of MAIN_FOLDERS) {
      expect(await restrictedImports(importing(from), filePath), filePath).toHaveLength(1)
    }
  })

  it("may import the host's messages and port, the shared code, the events and the other main folders", async () => {
    for (const from of ['../core/host/messages', '../core/host/port', '../core/shared/contract', '../core/base/events', '../core/files/contained-path', '../main-process/dispatch', './x']) {
      for (const filePath of MAIN_FOLDERS) {
        expect(await restrictedImports(importing(from), filePath), `${from} in ${filePath}`).toEqual([])
      }
    }
  })

  it("lets the web bridge take the command line's checks, the settings file and the data folder", async () => {
    for (const from of ['../core/startup/command-line', '../core/library/settings', '../core/files/data-folders']) {
      expect(await restrictedImports(importing(from), 'src-main/web/x.ts'), from).toEqual([])
      expect(await restrictedImports(importing(from), 'src-main/main-process/x.ts'), from).toHaveLength(1)
    }
  })

  it("lets the Electron glue take the data folder, the log and the window's placement", async () => {
    for (const from of ['electron', '../core/files/data-folders', '../core/base/log', '../core/session/window-state']) {
      expect(await restrictedImports(importing(from), 'src-main/electron/x.ts'), from).toEqual([])
    }
    expect(await restrictedImports(importing('../core/base/log'), 'src-main/main-process/x.ts')).toHaveLength(1)
  })
})

describe('type-aware rules', () => {
  it('report a promise that nobody awaits or handles', async () => {
    const typeAware = new ESLint({ cwd: projectRoot })
    // A real file of the project, so TypeScript knows it; its text is replaced for the lint only.
    const code = "export async function later(): Promise<number> {\n  return 1\n}\nexport function forget(): void {\n  later()\n}\n"
    const [result] = await typeAware.lintText(code, { filePath: 'src-main/core/base/version.ts' })
    expect(result!.messages.map((message) => message.ruleId)).toContain('@typescript-eslint/no-floating-promises')
  }, 60_000)
})
