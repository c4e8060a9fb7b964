/**
 * The built page carries a strict Content-Security-Policy: scripts only from
 * the app itself (no inline script, no eval, nothing remote), and the bundle
 * needs no eval to run.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy } from '../../src-main/core/shared/content-security'
import { builtFile } from './support/build'

function policyOf(html: string): Map<string, string[]> {
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)
  expect(meta, 'index.html has a Content-Security-Policy meta').not.toBeNull()
  const text = meta![1]!.replaceAll('&#39;', "'")
  return new Map(text.split(';').map((directive) => directive.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]))
}

describe('the built index.html', () => {
  const html = fs.readFileSync(builtFile('renderer/index.html'), 'utf8')

  it('allows scripts from the app only: no inline script, no eval, nothing remote', () => {
    const policy = policyOf(html)
    expect(policy.get('default-src')).toEqual(["'self'"])
    expect(policy.get('script-src')).toEqual(["'self'"])
    expect(policy.get('object-src')).toEqual(["'none'"])
    expect(policy.get('base-uri')).toEqual(["'none'"])
    expect(policy.get('connect-src')).toEqual(["'self'"])
    for (const [name, sources] of policy) {
      expect(sources, name).not.toContain("'unsafe-eval'")
      for (const source of sources) expect(source, `${name} ${source}`).not.toMatch(/^(https?:|\*|ws:)/)
    }
  })

  it('is the policy the main process and the web bridge use', () => {
    expect(html.replaceAll('&#39;', "'")).toContain(contentSecurityPolicy({ development: false }))
  })

  it('has no inline script, and a bundle that never evaluates strings', () => {
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    const assets = path.join(path.dirname(builtFile('renderer/index.html')), 'assets')
    for (const file of fs.readdirSync(assets).filter((name) => name.endsWith('.js'))) {
      const code = fs.readFileSync(path.join(assets, file), 'utf8')
      expect(code, file).not.toMatch(/\bnew Function\(|\beval\(/)
    }
  })
})
