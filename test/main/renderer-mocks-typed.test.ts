// Every store test that stands in for the window's api types its stand-in against the contract
// (test/renderer/support/mock-api.ts): one left untyped would let a renamed channel pass its tests unnoticed.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

it('every mock of src-renderer/api is written `satisfies MockApi`', () => {
  const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'renderer')
  const mocking = fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.test.ts'))
    .filter((name) => fs.readFileSync(path.join(folder, name), 'utf8').includes("vi.mock('../../src-renderer/api'"))
  expect(mocking.length).toBeGreaterThan(10)
  const untyped = mocking.filter((name) => !/\}\s*satisfies MockApi/.test(fs.readFileSync(path.join(folder, name), 'utf8')))
  expect(untyped).toEqual([])
})
