import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The layering rule from eslint.config.js: src-main/core/ is plain Node.
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const eslint = new ESLint({ cwd: projectRoot })

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

  it("allows 'electron' in the Electron bootstrap (src-main/index.ts)", async () => {
    expect(await electronImportErrors(importsElectron, 'src-main/index.ts')).toEqual([])
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
