// How the artist screen reads: a blank title is "Untitled" everywhere it is named, the
// "Podcast" badge stands out in both themes, and the facts of a track wrap without a "·"
// left at the start or the end of a line.
import { ArtistPage } from './support/artist-page'
import { ensureSynced, pickArtist } from './support/catalogue-picks'
import { expect, test } from './support/fixtures'
import { badgeContrast, linesOf, separatorsAtLineEnds } from './support/visual-checks'

test.beforeEach(async ({ bridge }) => {
  await ensureSynced(bridge)
})

test('a track without a title is "Untitled" in its row and in the names of its buttons', async ({ app, page, demo }) => {
  const { artist, tracks } = pickArtist(demo, (_candidate, list) => list.length <= 30 && list.some((track) => track.title.trim() === ''))
  const blank = tracks.find((track) => track.title.trim() === '')!
  const screen = new ArtistPage(page, app.url)
  await screen.open(artist.username)
  await expect(screen.trackTitle(blank.uploadId)).toHaveText('Untitled')
  await expect(screen.trackButton(blank.uploadId, 'Download')).toHaveAccessibleName('Download Untitled')
  expect(app.errors).toEqual([])
})

test('the "Podcast" badge stands out in light and dark: its text 4.5:1, its outline 3:1', async ({ app, page, demo, bridge }) => {
  const podcaster = pickArtist(demo, (candidate, list) => candidate.isPodcaster && list.length > 0 && list.length <= 12)
  await bridge.call('settings:set', { theme: 'system' })
  const screen = new ArtistPage(page, app.url)
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await screen.open(podcaster.artist.username)
    expect(await screen.shell.drawnTheme()).toBe(scheme)
    const contrast = await badgeContrast(screen.podcastBadge)
    expect(contrast.text, `the badge's text in ${scheme}`).toBeGreaterThanOrEqual(4.5)
    expect(contrast.outline, `the badge's outline in ${scheme}`).toBeGreaterThanOrEqual(3)
    expect(await screen.shell.seriousViolations()).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
})

test('the facts of a track wrap in a narrow window without a "·" starting or ending a line', async ({ app, page, demo }) => {
  const { artist, tracks } = pickArtist(demo, (_candidate, list) => list.length >= 3 && list.length <= 12)
  const screen = new ArtistPage(page, app.url)
  await page.setViewportSize({ width: 800, height: 600 })
  await screen.open(artist.username)
  let wrapped = 0
  for (const track of tracks) {
    const facts = screen.trackFacts(track.uploadId)
    if ((await linesOf(facts)) > 1) wrapped += 1
    expect(await separatorsAtLineEnds(facts), `the facts of ${track.uploadId}`).toEqual([])
  }
  // The check means something only if lines did wrap.
  expect(wrapped).toBeGreaterThan(0)
  await screen.shell.screenshot('artist-narrow-light')
  expect(app.errors).toEqual([])
})
