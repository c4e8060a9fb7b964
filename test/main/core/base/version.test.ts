import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { APP_VERSION } from '../../../../src-main/core/base/version'

describe('APP_VERSION', () => {
  it("equals package.json's version", () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(APP_VERSION).toBe(manifest.version)
  })
})
