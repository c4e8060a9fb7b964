// The artist screen in Chromium, through `npm run web`, against the demo catalogue:
// every field as text, links opened outside the app, downloads from the track rows,
// "Download all", the background refresh and an artist gone from the service.
import { formatBytes, formatLocalDate } from '../../src-main/core/shared/format'
import { cheapestFit, tierFits } from '../../src-main/core/shared/tiers'
import { ArtistPage } from './support/artist-page'
import { downloadNow, ensureSynced, pickArtist } from './support/catalogue-picks'
import { expect, test } from './support/fixtures'
import { valueOf } from './support/catalogue-ready'
import { startIsolatedApp } from './support/isolated-app'

/** Dates and counts are drawn in the page's locale; the test writes them in the same one. */
const LOCALE = 'en-US'
test.use({ locale: LOCALE })

/** Artists other tests here change (downloads, edits): each test keeps to its own. */
const taken: string[] = []
function own<T extends { artist: { username: string } }>(pick: T): T {
  taken.push(pick.artist.username)
  return pick
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Lines of text as a reader sees them: runs of spaces as one, blank lines dropped. */
function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line) => line !== '')
}

test.beforeEach(async ({ bridge, page }) => {
  await ensureSynced(bridge)
  // A bio or name that ran as markup would show a dialog; none may.
  page.on('dialog', (dialog) => {
    throw new Error(`a dialog opened: ${dialog.message()}`)
  })
})

test('shows every field of an artist as text: a hostile bio stays text with its line breaks', async ({ app, page, demo }) => {
  const { artist, tracks } = pickArtist(
    demo,
    (candidate, list) =>
      list.length >= 2 &&
      list.length <= 12 &&
      /<script|<img/.test(candidate.pfBio) &&
      candidate.pfBio.includes('\n') &&
      candidate.pfName.trim() !== '' &&
      candidate.location.name !== '' &&
      !candidate.isPodcaster,
    taken,
  )
  const screen = new ArtistPage(page, app.url)
  await screen.openAndRefresh(artist.username)
  // The sync cached the thumbnail; opening the artist online cached the full size, now shown.
  await expect(screen.fullAvatar).toBeVisible()

  await expect(screen.name).toHaveText(artist.pfName.trim())
  await expect(screen.username).toHaveText(`@${artist.username}`)
  await expect(screen.location).toContainText(artist.location.name)
  await expect(screen.podcastBadge).toHaveCount(0)

  // The bio: its markup shown as characters, no element made of it, its lines kept.
  await expect(screen.bio).toContainText(/<script>|<img src=x/)
  await expect(screen.bio.locator('*')).toHaveCount(0)
  const drawn = await screen.bio.evaluate((element) => (element as HTMLElement).innerText)
  expect(lines(drawn)).toEqual(lines(artist.pfBio))
  expect(drawn).toContain('\n')
  await expect(page.locator('main script, main img[src="x"]')).toHaveCount(0)

  // Every track with its title, subtype, format, size, local date, downloads and hotlinks.
  await expect(screen.tracks.locator(':scope > li')).toHaveCount(tracks.length)
  for (const track of tracks) {
    const title = track.title.trim() === '' ? 'Untitled' : track.title.replace(/\s+/g, ' ').trim()
    await expect(screen.trackTitle(track.uploadId)).toHaveText(title)
    await expect(screen.trackFact(track.uploadId, 'subtype')).toHaveText(track.subtype)
    await expect(screen.trackFact(track.uploadId, 'format')).toHaveText(track.ext.toUpperCase())
    await expect(screen.trackFact(track.uploadId, 'size')).toHaveText(formatBytes(track.bytes))
    await expect(screen.trackFact(track.uploadId, 'date')).toHaveText(formatLocalDate(track.createdAt, LOCALE))
    await expect(screen.trackFact(track.uploadId, 'downloads')).toHaveText(
      `${track.downloads.toLocaleString(LOCALE)} ${track.downloads === 1 ? 'download' : 'downloads'}`,
    )
    await expect(screen.trackFact(track.uploadId, 'hotlinks')).toHaveText(
      `${track.hotlinks.toLocaleString(LOCALE)} ${track.hotlinks === 1 ? 'hotlink' : 'hotlinks'}`,
    )
  }

  // Nothing changed on the service: no "Updated" note once the refresh is over.
  await expect(screen.shell.message('Updated')).toHaveCount(0)
  expect(app.errors).toEqual([])
})

test('a hostile display name is text; a podcaster has its badge', async ({ app, page, demo }) => {
  const hostile = pickArtist(demo, (candidate, list) => candidate.pfName.includes('<img') && list.length > 0, taken)
  const screen = new ArtistPage(page, app.url)
  await screen.open(hostile.artist.username)
  await expect(screen.name).toHaveText(hostile.artist.pfName.trim())
  await expect(screen.name.locator('*')).toHaveCount(0)
  await expect(page.locator('main img[src="x"]')).toHaveCount(0)

  const podcaster = pickArtist(demo, (candidate, list) => candidate.isPodcaster && list.length > 0, taken)
  await screen.open(podcaster.artist.username)
  await expect(screen.name).toHaveText(podcaster.artist.pfName.trim() || podcaster.artist.username)
  await expect(screen.podcastBadge).toHaveText('Podcast')
  expect(app.errors).toEqual([])
})

test('links open outside the app: a website without a scheme as https, handles as profile addresses', async ({ app, page, context, demo }) => {
  const { artist } = pickArtist(
    demo,
    (candidate) => Boolean(candidate.pfWebsite?.startsWith('www.') && candidate.pfFacebook && candidate.pfTwitter),
    taken,
  )
  const website = `https://${artist.pfWebsite!}/`
  // The web bridge leaves opening to the page; nothing leaves the machine.
  await context.route(/^https:\/\//, (route) => route.fulfill({ contentType: 'text/html', body: '<title>outside</title>' }))
  const screen = new ArtistPage(page, app.url)
  await screen.open(artist.username)

  await expect(screen.link('website')).toHaveAttribute('href', website)
  await expect(screen.link('website')).toContainText(artist.pfWebsite!)
  await expect(screen.link('facebook')).toHaveAttribute('href', `https://www.facebook.com/${artist.pfFacebook!}`)
  await expect(screen.link('twitter')).toHaveAttribute('href', `https://twitter.com/${artist.pfTwitter!}`)

  const opened = context.waitForEvent('page')
  await screen.link('website').click()
  const outside = await opened
  await expect.poll(() => outside.url()).toBe(website)
  // The app's own window stays where it was.
  await expect(screen.name).toBeVisible()
  expect(page.url()).toContain(`#/artists/${encodeURIComponent(artist.username)}`)
  await outside.close()

  // An artist without any usable link shows no links at all.
  const bare = pickArtist(demo, (candidate) => !candidate.pfWebsite && !candidate.pfFacebook && !candidate.pfTwitter, taken)
  await screen.open(bare.artist.username)
  await expect(screen.links).toHaveCount(0)
  expect(app.errors).toEqual([])
})

test('downloads one track with its progress, pauses and resumes it, then offers Play and Open', async ({ app, page, demo }) => {
  test.setTimeout(90_000)
  const { artist, tracks } = own(
    pickArtist(demo, (candidate, list) => !candidate.isPodcaster && list.length <= 12 && list.some((track) => track.bytes > 1.5 * 2 ** 20 && track.bytes < 4 * 2 ** 20), taken),
  )
  const track = tracks.find((candidate) => candidate.bytes > 1.5 * 2 ** 20 && candidate.bytes < 4 * 2 ** 20)!
  const screen = new ArtistPage(page, app.url)
  await screen.open(artist.username)
  await expect(screen.trackState(track.uploadId)).toHaveAttribute('data-state', 'none')

  demo.faults.add({ path: '/hotlink/*', times: 100, fault: { kind: 'slow', bytesPerSecond: 200_000 } })
  try {
    await screen.trackButton(track.uploadId, 'Download').click()
    // The button became a progress bar with its percent, moving.
    const progress = screen.trackProgress(track.uploadId)
    await expect(progress).toBeVisible()
    await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 15_000 }).toBeGreaterThan(5)
    await expect(screen.track(track.uploadId)).toContainText(/\d+%/)

    await screen.trackButton(track.uploadId, 'Pause').click()
    await expect(screen.trackState(track.uploadId)).toHaveAttribute('data-state', 'paused')
    await expect(screen.track(track.uploadId)).toContainText(/Paused \d+%/)
    const kept = Number(await progress.getAttribute('aria-valuenow'))
    expect(kept).toBeGreaterThan(5)
  } finally {
    demo.faults.clear()
  }

  await screen.trackButton(track.uploadId, 'Resume').click()
  await expect(screen.trackButton(track.uploadId, 'Play')).toBeVisible({ timeout: 30_000 })
  await expect(screen.trackButton(track.uploadId, 'Open')).toBeVisible()
  await expect(screen.trackButton(track.uploadId, 'Show')).toBeVisible()
  await expect(screen.trackProgress(track.uploadId)).toHaveCount(0)

  // A browser cannot open a file with its application: the button says so rather than doing nothing.
  await expect(screen.trackButton(track.uploadId, 'Open')).toBeDisabled()
  await expect(screen.trackButton(track.uploadId, 'Open')).toHaveAttribute('title', /Needs the desktop app/)
  expect(app.errors).toEqual([])
})

test('"Download all" says what fits what (the files on disk, the uploads in a tier) and queues every track', async ({ app, page, demo, bridge }) => {
  test.setTimeout(60_000)
  const { artist, tracks } = own(
    pickArtist(demo, (candidate, list) => list.length >= 2 && list.length <= 4 && list.reduce((sum, track) => sum + track.bytes, 0) < 10 * 2 ** 20, taken),
  )
  const total = tracks.reduce((sum, track) => sum + track.bytes, 0)
  const screen = new ArtistPage(page, app.url)
  await screen.open(artist.username)

  // What fits what: the files in the room on disk, the uploads in a tier's limits (a link to Tiers says more).
  await expect(screen.downloadAllEstimate).toHaveText(new RegExp(`^${tracks.length} files, ${escape(formatBytes(total))}: fits in the .+ free on disk$`))
  const levels = valueOf(await bridge.call('catalogue:levels'))
  const tier = cheapestFit(tierFits(levels, tracks.map((track) => track.bytes)))!
  await expect(screen.tierLink).toHaveText(`Fits the ${tier.level.name} tier's limits`)
  await expect(screen.tierLink).toHaveAttribute('href', `#/tiers?artist=${encodeURIComponent(artist.username)}`)
  await screen.downloadAll.click()
  await expect(screen.shell.message('Queued')).toContainText(`${tracks.length} tracks`)
  // Every row left its Download button: queued, downloading or done.
  for (const track of tracks) await expect(screen.trackButton(track.uploadId, 'Download')).toHaveCount(0)
  for (const track of tracks) await expect(screen.trackButton(track.uploadId, 'Play')).toBeVisible({ timeout: 30_000 })
  // What it queued, then on another visit what is left: nothing.
  await expect(screen.downloadAllEstimate).toHaveText(new RegExp(`^${tracks.length} files queued, ${escape(formatBytes(total))}$`))
  await expect(screen.downloadAll).toBeDisabled()
  await screen.shell.navLink('Artists').click()
  await screen.open(artist.username)
  await expect(screen.downloadAllEstimate).toHaveText('Everything is downloaded or queued')
  await expect(screen.downloadAll).toBeDisabled()
  expect(app.errors).toEqual([])
})

test('an artist edited on the service shows "Updated" when opened, with the new details', async ({ app, page, demo }) => {
  const { artist } = own(pickArtist(demo, (candidate, list) => list.length > 0 && candidate.pfName.trim() !== '' && !candidate.pfName.includes('<'), taken))
  const before = { pfName: artist.pfName, pfBio: artist.pfBio }
  demo.catalogue.editArtist(artist.username, { pfName: `${before.pfName.trim()} (Remastered)`, pfBio: 'Edited on the service.\nA second line.' })
  try {
    const screen = new ArtistPage(page, app.url)
    await screen.open(artist.username)
    await expect(screen.shell.message('Updated')).toBeVisible({ timeout: 15_000 })
    await expect(screen.name).toHaveText(`${before.pfName.trim()} (Remastered)`)
    const drawn = await screen.bio.evaluate((element) => (element as HTMLElement).innerText)
    expect(lines(drawn)).toEqual(['Edited on the service.', 'A second line.'])
  } finally {
    demo.catalogue.editArtist(artist.username, before)
  }
  expect(app.errors).toEqual([])
})

test('an artist removed from the service says so; its downloads stay', async ({ app, page, demo, bridge }) => {
  const { artist, tracks } = own(pickArtist(demo, (candidate, list) => list.length >= 2 && list.length <= 8 && list.some((track) => track.bytes < 2 ** 20), taken))
  const small = tracks.find((track) => track.bytes < 2 ** 20)!
  await downloadNow(bridge, [small.uploadId])
  demo.catalogue.removeArtist(artist.username)
  try {
    const screen = new ArtistPage(page, app.url)
    await screen.open(artist.username)
    await expect(screen.goneBanner).toContainText('No longer on the service', { timeout: 15_000 })
    await expect(screen.goneBanner).toContainText('your downloads stay')
    await expect(screen.name).toBeVisible()
    await expect(screen.tracks.locator(':scope > li')).toHaveCount(tracks.length)
    await expect(screen.trackButton(small.uploadId, 'Play')).toBeVisible()
  } finally {
    demo.catalogue.restoreArtist(artist.username)
  }
  expect(app.errors).toEqual([])
})

test('offline, an artist shows from the cache without complaint', async ({ page }) => {
  test.setTimeout(120_000)
  // Its own service and bridge: stopping the shared demo would take it from every other test.
  const offline = await startIsolatedApp()
  try {
    const synced = await offline.bridge.call('sync:start')
    if (!synced.ok) throw new Error(synced.error.message)
    const { artist, tracks } = pickArtist(offline.demo, (candidate, list) => list.length > 0 && candidate.pfName.trim() !== '')
    await offline.stopDemo()

    const screen = new ArtistPage(page, offline.bridge.url)
    await screen.openAndRefresh(artist.username)
    await expect(screen.name).toHaveText(artist.pfName.trim())
    await expect(screen.tracks.locator(':scope > li')).toHaveCount(tracks.length)
    await expect(screen.view).not.toContainText('Not checked for updates')
    await expect(screen.shell.messages.locator('.notice.error')).toHaveCount(0)
    await expect(screen.goneBanner).toHaveCount(0)
  } finally {
    await offline.close()
  }
})

test('an unknown artist is a clear "not found" with a way back to the list', async ({ app, page }) => {
  const screen = new ArtistPage(page, app.url)
  await screen.open('nobody-by-this-name')
  await expect(screen.notFound).toContainText('No artist named “nobody-by-this-name”')
  await page.getByRole('link', { name: 'Back to artists' }).click()
  await expect(page).toHaveURL(/#\/artists$/)
  expect(app.errors).toEqual([])
})

test('the back link returns to the artists list', async ({ app, page, demo }) => {
  const { artist } = pickArtist(demo, (_candidate, list) => list.length > 0, taken)
  const screen = new ArtistPage(page, app.url)
  await screen.shell.open('artists')
  await page.evaluate((username) => (window.location.hash = `#/artists/${encodeURIComponent(username)}`), artist.username)
  await expect(screen.name).toBeVisible()
  await screen.backLink.click()
  await expect(page).toHaveURL(/#\/artists$/)
  await expect(screen.view).toHaveCount(0)
})

test('screenshots in light and dark at 1280×800 and 800×600, with no serious accessibility violation and nothing off the side', async ({ app, page, demo, bridge }) => {
  test.setTimeout(60_000)
  const { artist, tracks } = own(
    pickArtist(
      demo,
      (candidate, list) =>
        list.length >= 4 &&
        list.length <= 8 &&
        Boolean(candidate.pfWebsite && candidate.pfTwitter) &&
        candidate.pfBio.includes('\n') &&
        candidate.location.name !== '' &&
        list.some((track) => track.bytes < 2 ** 20) &&
        list.some((track) => track.bytes > 2 ** 20),
      taken,
    ),
  )
  // One track downloaded, one paused part-way: the screenshots show both kinds of row.
  await downloadNow(bridge, [tracks.find((track) => track.bytes < 2 ** 20)!.uploadId])
  const partial = tracks.find((track) => track.bytes > 2 ** 20)!
  demo.faults.add({ path: '/hotlink/*', times: 100, fault: { kind: 'slow', bytesPerSecond: 200_000 } })
  try {
    const queued = await bridge.call('downloads:enqueue', { uploadIds: [partial.uploadId] })
    if (!queued.ok) throw new Error(queued.error.message)
    const id = queued.value.downloads[0]!.id
    await expect
      .poll(async () => {
        const list = await bridge.call('downloads:list')
        return list.ok ? (list.value.find((download) => download.id === id)?.bytesDone ?? 0) : 0
      })
      .toBeGreaterThan(Math.min(partial.bytes / 4, 400_000))
    await bridge.call('downloads:pause', [id])
  } finally {
    demo.faults.clear()
  }

  await bridge.call('settings:set', { theme: 'system' })
  const screen = new ArtistPage(page, app.url)
  for (const size of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
    await page.setViewportSize(size)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await screen.openAndRefresh(artist.username)
      await expect(screen.trackState(partial.uploadId)).toHaveAttribute('data-state', 'paused')
      await expect(screen.downloadAll).toBeVisible()
      expect(await screen.shell.drawnTheme()).toBe(scheme)
      await screen.shell.screenshot(size.width === 1280 ? `artist-${scheme}` : `artist-${scheme}-800x600`)
      expect(await screen.shell.seriousViolations()).toEqual([])
      // Nothing runs off the side, the smallest window included.
      expect(await screen.shell.content.evaluate((main) => main.scrollWidth - main.clientWidth)).toBeLessThanOrEqual(0)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  expect(app.errors).toEqual([])
})
