/**
 * The hand-written reading of the two hot answers (api/fast-shapes.ts) against the schemas:
 * whatever it takes, it must make exactly what valibot makes, member order included (a list
 * entry's signature is a digest of its JSON); whatever it does not take is left to valibot.
 */
import { describe, expect, test } from 'vitest'
import * as v from 'valibot'
import { fastArtistDetail, fastArtistList } from '../../../../src-main/core/api/fast-shapes'
import { artistDetailSchema, artistListSchema } from '../../../../src-main/core/api/schemas'
import { Catalogue } from '../../../../src-main/demo/catalogue'
import { artistDetailJson, listArtistJson } from '../../../../src-main/demo/responses'

const origin = 'http://127.0.0.1:1'
const catalogue = new Catalogue({ artists: 300, seed: 3, maxFileMb: 16 })
const listPage = (artists: typeof catalogue.artists): unknown =>
  JSON.parse(`{"pages":7,"artists":[${artists.map((artist) => `{"artist":${listArtistJson(origin, catalogue, artist)}}`).join(',')}]}`)
const details = catalogue.artists.map((artist) => JSON.parse(artistDetailJson(origin, catalogue, artist)) as unknown)

/** The fast reading agrees with the schema: the same output, or no output (the schema then decides). */
function agrees(fast: (json: unknown) => unknown, schema: v.GenericSchema, json: unknown): 'fast' | 'schema' {
  const expected = v.safeParse(schema, json, { abortEarly: true })
  const got = fast(json)
  if (got === undefined) return 'schema'
  expect(expected.success, `the fast path took what the schema refuses (${expected.issues?.[0].message} at ${expected.issues?.[0].path?.map((item) => item.key).join(".")})`).toBe(true)
  expect(JSON.stringify(got)).toBe(JSON.stringify(expected.output))
  return 'fast'
}

/** Every leaf and member of json, as paths. */
function paths(json: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof json !== 'object' || json === null) return [prefix]
  const entries = Array.isArray(json) ? json.map((value, index) => [index, value] as const) : Object.entries(json)
  return [prefix, ...entries.flatMap(([key, value]) => paths(value, [...prefix, key]))]
}

/** json with the member at path replaced (or removed, for undefined). */
function replaced(json: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value
  const copy = structuredClone(json) as Record<string | number, unknown>
  let parent = copy
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  // JSON has no holes: an element is removed from its array, a member from its object.
  if (value === undefined && Array.isArray(parent)) parent.splice(path.at(-1) as number, 1)
  else if (value === undefined) delete parent[path.at(-1)!]
  else parent[path.at(-1)!] = value
  return copy
}

const ODD_VALUES = [undefined, null, '', 'x'.repeat(25_000), 'a\u0007b\nc\td', -1, 1.5, 2 ** 60, 0, 42, {}, [], true, { item: null }]

describe('the fast reading of the sync’s two hot answers', () => {
  test('takes every list page and detail of a demo catalogue, and makes what the schemas make', () => {
    for (let start = 0; start < catalogue.artists.length; start += 50) {
      expect(agrees(fastArtistList, artistListSchema, listPage(catalogue.artists.slice(start, start + 50)))).toBe('fast')
    }
    for (const detail of details) expect(agrees(fastArtistDetail, artistDetailSchema, detail)).toBe('fast')
  })

  test('with any member missing, null, or of another type or size, makes what the schemas make or leaves it to them', () => {
    const detail = details.find((json) => (json as { items: unknown[] }).items.length >= 2)!
    const page = listPage(catalogue.artists.slice(0, 2))
    let fast = 0
    let schema = 0
    for (const [json, read, shape] of [
      [detail, fastArtistDetail, artistDetailSchema],
      [page, fastArtistList, artistListSchema],
    ] as const) {
      for (const path of paths(json)) {
        for (const value of ODD_VALUES) {
          if (agrees(read, shape, replaced(json, path, value)) === 'fast') fast++
          else schema++
        }
      }
    }
    // Both ways were taken: tolerated gaps read fast, and wrong values left to valibot's words.
    expect(fast).toBeGreaterThan(100)
    expect(schema).toBeGreaterThan(100)
  })

  test('a numeric upload id, control characters and overlong texts are read as the schemas read them', () => {
    const json = structuredClone(details.find((each) => (each as { items: unknown[] }).items.length >= 1)) as {
      pf_name: string
      pf_bio: string
      pf_website: string
      items: { item: { title: string; upload: { id: unknown } } }[]
    }
    json.pf_name = `\u001b[31mred\u0000 ${'n'.repeat(300)}`
    json.pf_bio = 'line one\nline two\r\n\u0007'
    json.pf_website = `https://example.test/${'w'.repeat(2100)}`
    json.items[0]!.item.title = '\u202eevil\ttitle'
    json.items[0]!.item.upload.id = 12345
    expect(agrees(fastArtistDetail, artistDetailSchema, json)).toBe('fast')
  })
})
