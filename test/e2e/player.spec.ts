// The player in Chromium: a downloaded WAV played from the artist screen through the
// media protocol, paused, sought and followed by the artist's next downloaded track,
// by mouse and by keyboard; a file gone from the disk is a message, not a silent failure.
import { rm } from 'node:fs/promises'
import { ArtistPage } from './support/artist-page'
import { downloadNow, ensureSynced, pickArtist } from './support/catalogue-picks'
import { expect, test } from './support/fixtures'
import { PlayerBar } from './support/player-bar'

/** A title as the player draws it. */
function shown(title: string): string {
  return title.trim() === '' ? 'Untitled' : title
}

test.beforeEach(async ({ bridge }) => {
  await ensureSynced(bridge)
})

test('plays a downloaded WAV: play, pause, seek, next track of the artist, volume', async ({ app, page, demo, bridge }) => {
  test.setTimeout(90_000)
  // An artist with two WAV uploads and something else between them (not downloaded here: "next" skips it).
  const { artist, tracks } = pickArtist(demo, (_candidate, list) => {
    const wavs = list.flatMap((track, index) => (track.ext === 'wav' ? [index] : []))
    return list.length >= 5 && list.length <= 12 && wavs.length >= 2 && wavs[1]! - wavs[0]! > 1
  })
  const [first, second] = tracks.filter((track) => track.ext === 'wav')
  await downloadNow(bridge, [first!.uploadId, second!.uploadId])
  // Other specs share the queue: "next" is whatever of this artist is downloaded after the first WAV.
  const completed = await bridge.call('downloads:list', 'completed')
  if (!completed.ok) throw new Error(completed.error.message)
  const done = new Set(completed.value.map((download) => download.uploadId))
  const following = tracks.slice(tracks.indexOf(first!) + 1).filter((track) => done.has(track.uploadId))
  expect(following[0]!.uploadId).toBe(second!.uploadId)

  const screen = new ArtistPage(page, app.url)
  const player = new PlayerBar(page)
  await screen.open(artist.username)
  // Nothing played yet: no bar.
  await expect(player.region).toHaveCount(0)
  await player.slowDown()

  await screen.trackButton(first!.uploadId, 'Play').click()
  await expect(player.region).toBeVisible()
  await expect(player.title).toHaveText(shown(first!.title))
  await expect(player.artist).toHaveText(artist.pfName.trim() || artist.username)
  await expect(player.pause).toBeVisible()
  await expect(screen.trackButton(first!.uploadId, 'Pause')).toBeVisible()
  await expect.poll(() => player.position(), { message: 'the track plays' }).toBeGreaterThan(0)

  // Paused by keyboard: the position stays where it was.
  await player.pause.focus()
  await page.keyboard.press('Enter')
  await expect(player.play).toBeVisible()
  const paused = await player.position()
  await expect(player.seek).toHaveAttribute('aria-valuetext', /^\d+:\d\d of \d+:\d\d$/)
  expect(await player.position()).toBe(paused)

  // Sought by keyboard (arrows move by a tenth of a short track) and by the slider itself.
  const duration = Number(await player.seek.getAttribute('max'))
  expect(duration).toBeGreaterThan(0.4)
  await player.seek.focus()
  await page.keyboard.press('Home')
  await expect.poll(() => player.position()).toBe(0)
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect.poll(() => player.position()).toBeCloseTo(duration / 5, 1)
  await player.seek.fill(String(duration / 2))
  await expect.poll(() => player.position()).toBeCloseTo(duration / 2, 1)
  expect(await player.audio.evaluate((element: HTMLAudioElement) => element.currentTime)).toBeCloseTo(duration / 2, 1)

  // Volume: a slider with its value as text; mute keeps the level.
  await player.volume.fill('40')
  await expect(player.volume).toHaveAttribute('aria-valuetext', '40%')
  expect(await player.audio.evaluate((element: HTMLAudioElement) => element.volume)).toBeCloseTo(0.4)
  await player.mute.click()
  await expect(player.mute).toHaveAttribute('aria-pressed', 'true')
  expect(await player.audio.evaluate((element: HTMLAudioElement) => element.muted)).toBe(true)
  await player.mute.click()
  await expect(player.mute).toHaveAttribute('aria-pressed', 'false')

  await screen.shell.screenshot('player-light')

  // Next: the artist's next completed download, past the track that is not downloaded.
  await expect(player.next).toBeEnabled()
  await player.next.click()
  await expect(player.title).toHaveText(shown(second!.title))
  await expect(player.pause).toBeVisible()
  await expect(screen.trackButton(second!.uploadId, 'Pause')).toBeVisible()
  await expect(screen.trackButton(first!.uploadId, 'Play')).toBeVisible()
  // After the last downloaded track of the artist there is nothing next.
  if (following.length === 1) await expect(player.next).toBeDisabled()

  // Space in the bar (outside its controls) plays and pauses too.
  await player.title.click()
  await page.keyboard.press(' ')
  await expect(player.play).toBeVisible()

  await player.close.click()
  await expect(player.region).toHaveCount(0)
  expect(app.errors).toEqual([])
})

test('a downloaded file that is gone from the disk is a message when played, and the track offers to download it again', async ({ app, page, demo, bridge }) => {
  const { artist, tracks } = pickArtist(demo, (_candidate, list) => list.length <= 12 && list.filter((track) => track.ext === 'wav').length === 1)
  const wav = tracks.find((track) => track.ext === 'wav')!
  const [download] = await downloadNow(bridge, [wav.uploadId])

  const screen = new ArtistPage(page, app.url)
  await screen.open(artist.username)
  // Gone after the screen read the queue (a file found gone when the list is read offers "Download again" at once).
  await expect(screen.trackButton(wav.uploadId, 'Play')).toBeVisible()
  await rm(download!.targetPath)
  await screen.trackButton(wav.uploadId, 'Play').click()
  await expect(screen.shell.message(/Could not play/)).toContainText('no longer at')
  await expect(new PlayerBar(page).region).toHaveCount(0)
  await expect(screen.trackButton(wav.uploadId, 'Play')).toHaveCount(0)
})
