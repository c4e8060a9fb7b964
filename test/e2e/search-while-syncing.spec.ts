// Search during a first sync: while the lists of a slowed demo are still coming in, a name read
// off the Artists screen is found by typing it in the search box, and the screen says the search
// covers only the artists synced so far ("Searching the 1,234 artists synced so far"), beside its
// results and in place of "No artists match".
import type { Page } from '@playwright/test'
import { AppPage } from './support/app-page'
import { ArtistsPage } from './support/artists-page'
import { seriousViolations } from './support/axe-check'
import { valueOf } from './support/catalogue-ready'
import { expect, test } from './support/fixtures'
import { startIsolatedApp, type IsolatedApp } from './support/isolated-app'

test.describe.configure({ timeout: 120_000 })

/** "Searching the 1,234 artists synced so far": the count with its thousands separators. */
const PARTIAL = /^Searching the (\d{1,3}(?:,\d{3})*) artists? synced so far/

let own: IsolatedApp

test.beforeAll(async () => {
  own = await startIsolatedApp({
    // Enough artists for the lists to last a minute at about a second a list page (each some 38 kB).
    catalogue: { artists: 2500, seed: 11, maxFileMb: 2 },
    beforeStart: (demo) => demo.faults.add({ path: '/api/v1/artists', times: 100_000, fault: { kind: 'slow', bytesPerSecond: 40_000 } }),
  })
})

test.afterAll(async () => {
  await own.close()
})

/** The stage of the sync under way, as the window's own channel says. */
async function syncPhase(): Promise<string> {
  const state = valueOf(await own.bridge.call('sync:state'))
  return state.status === 'running' ? (state.progress?.phase ?? 'starting') : state.status
}

/** Screenshots of the screen as it is, in both themes. */
async function screenshots(page: Page, app: AppPage, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await app.screenshot(`${name}-${theme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test('during a first sync\'s lists, a name on screen is found, and the search says it covers the artists synced so far', async ({ page }) => {
  const app = new AppPage(page, own.bridge.url)
  const artists = new ArtistsPage(page, own.bridge.url)
  await artists.open()
  await artists.settled()
  expect(await syncPhase()).toBe('lists')

  // A row on screen whose name has a word to type (the demo's names include emoji and markup).
  let picked: { username: string; name: string } | undefined
  await expect
    .poll(async () => {
      const rows = await artists.rows.evaluateAll((options) =>
        options.map((option) => ({ username: option.getAttribute('data-username') ?? '', name: option.querySelector('.name')?.textContent?.trim() ?? '' })),
      )
      picked = rows.slice(3).find((row) => row.username !== '' && /^[A-Za-z]{3,}( [A-Za-z]{3,})*$/.test(row.name))
      return picked !== undefined
    })
    .toBe(true)
  await expect(artists.row(picked!.username)).toBeVisible()

  // Typed as a user types it: found, while the lists are still coming in.
  await artists.search.pressSequentially(picked!.name, { delay: 30 })
  await expect(artists.row(picked!.username)).toBeVisible({ timeout: 5_000 })
  const partial = page.getByTestId('partial-search')
  await expect(partial).toBeVisible()
  await expect(partial).toHaveText(PARTIAL)
  expect(await syncPhase()).toBe('lists')

  // The count grows with the index, written with its thousands separators once past a thousand.
  await expect.poll(async () => Number(PARTIAL.exec((await partial.textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? 0), { timeout: 60_000 }).toBeGreaterThanOrEqual(1000)
  await expect(partial).toHaveText(/^Searching the \d,\d{3} artists synced so far/)
  await expect(artists.row(picked!.username)).toBeVisible()
  expect(await syncPhase()).toBe('lists')
  expect(await seriousViolations(page)).toEqual([])
  await screenshots(page, app, 'artists-search-while-syncing')

  // Nothing among the artists synced so far: said so, not "No artists match".
  await artists.search.fill('zzqxv')
  await expect(page.getByRole('status').filter({ hasText: PARTIAL })).toBeVisible()
  await expect(page.getByText('None of them matches “zzqxv” yet.', { exact: false })).toBeVisible()
  await expect(page.getByText('No artists match')).toHaveCount(0)
  expect(await syncPhase()).toBe('lists')
  expect(await seriousViolations(page)).toEqual([])
  await screenshots(page, app, 'artists-search-while-syncing-none')
  // The thumbnails come after the lists: until then the window asks for them in vain (a 404 each) and shows initials.
  expect(app.errors.filter((error) => !/status of 404 .*\/avatars\/.*-thumb\.svg/.test(error))).toEqual([])
})
