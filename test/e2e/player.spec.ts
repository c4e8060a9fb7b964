// The player in Chromium, as a person uses it: a downloaded WAV played from the artist screen
// through the media protocol, a file of every type the demo serves played to its end, paused, sought, volume; "Play all" of an artist's downloaded tracks
// into a queue shown in a panel (the current one marked, jump, remove), previous, next, shuffle,
// repeat; the now-playing marker on the track row; Space from anywhere in the window; files that
// cannot be played skipped with one notice; a file gone from the disk, a message.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ArtistRecord, TrackRecord } from '../../src-main/demo/catalogue'
import { screenshotDir } from './support/app-page'
import { ArtistPage } from './support/artist-page'
import { downloadNow, ensureSynced, pickArtist, type Pick } from './support/catalogue-picks'
import { valueOf } from './support/catalogue-ready'
import { expect, test } from './support/fixtures'
import { PlayerBar } from './support/player-bar'
import type { RunningWebBridge } from './support/web-bridge'
import type { RunningCatalogueService } from '../../src-main/demo/index'

/** A title as the player draws it. */
function shown(title: string): string {
  return title.trim() === '' ? 'Untitled' : title
}

/** An artist's shown name. */
function nameOf(artist: ArtistRecord): string {
  return artist.pfName.trim() || artist.username
}

/**
 * The last artist for which `test` holds and none of whose tracks is in the download queue (specs
 * share the queue of their worker): what the artist has downloaded is then exactly what this test downloads.
 */
async function pickUntouched(demo: RunningCatalogueService, bridge: RunningWebBridge, test: (tracks: TrackRecord[]) => boolean): Promise<Pick> {
  const listed = await bridge.call('downloads:list')
  if (!listed.ok) throw new Error(listed.error.message)
  const queued = new Set(listed.value.map((download) => download.uploadId))
  return pickArtist(demo, (_artist, tracks) => test(tracks) && tracks.every((track) => !queued.has(track.uploadId)))
}

const wavsOf = (tracks: TrackRecord[]): TrackRecord[] => tracks.filter((track) => track.ext === 'wav')
/** Titles the test can tell apart on screen. */
const distinctTitles = (tracks: TrackRecord[]): boolean => new Set(tracks.map((track) => shown(track.title))).size === tracks.length

test.beforeEach(async ({ bridge }) => {
  await ensureSynced(bridge)
})

test('plays a downloaded WAV: play, pause, seek, volume, the next downloaded track of the artist, close', async ({ app, page, demo, bridge }) => {
  test.setTimeout(90_000)
  // Two WAVs with something between them that is not downloaded: the queue skips past it.
  const { artist, tracks } = await pickUntouched(demo, bridge, (list) => {
    const wavs = list.flatMap((track, index) => (track.ext === 'wav' ? [index] : []))
    return list.length >= 5 && list.length <= 12 && wavs.length === 2 && wavs[1]! - wavs[0]! > 1
  })
  const [first, second] = wavsOf(tracks) as [TrackRecord, TrackRecord]
  await downloadNow(bridge, [first.uploadId, second.uploadId])

  const screen = new ArtistPage(page, app.url)
  const player = new PlayerBar(page)
  await screen.open(artist.username)
  // Nothing played yet: no bar.
  await expect(player.region).toHaveCount(0)
  await player.slowDown()

  await screen.trackButton(first.uploadId, 'Play').click()
  await expect(player.region).toBeVisible()
  await expect(player.title).toHaveText(shown(first.title))
  await expect(player.artist).toHaveText(nameOf(artist))
  await expect(player.pause).toBeVisible()
  await expect(screen.trackButton(first.uploadId, 'Pause')).toBeVisible()
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

  // Next: the artist's next downloaded track, past the one that is not downloaded; after it, nothing.
  await expect(player.next).toBeEnabled()
  await player.next.click()
  await expect(player.title).toHaveText(shown(second.title))
  await expect(player.pause).toBeVisible()
  await expect(screen.trackButton(second.uploadId, 'Pause')).toBeVisible()
  await expect(screen.trackButton(first.uploadId, 'Play')).toBeVisible()
  await expect(player.next).toBeDisabled()

  await player.close.click()
  await expect(player.region).toHaveCount(0)
  expect(app.errors).toEqual([])
})

test('Play all: the queue panel, previous, next, jump, remove, shuffle and repeat, and the now-playing marker', async ({ app, page, demo, bridge }) => {
  test.setTimeout(120_000)
  const { artist, tracks } = await pickUntouched(demo, bridge, (list) => list.length <= 15 && wavsOf(list).length >= 3 && distinctTitles(wavsOf(list).slice(0, 3)))
  const [one, two, three] = wavsOf(tracks) as [TrackRecord, TrackRecord, TrackRecord]
  const titles = [one, two, three].map((track) => shown(track.title))

  const screen = new ArtistPage(page, app.url)
  const player = new PlayerBar(page)
  const playAll = page.getByRole('button', { name: 'Play all' })
  await screen.open(artist.username)
  // Nothing downloaded: the button says why it cannot play.
  await expect(playAll).toBeDisabled()
  await expect(playAll).toHaveAccessibleDescription(/^No (track|episode) downloaded yet$/)

  await downloadNow(bridge, [one.uploadId, two.uploadId, three.uploadId])
  await expect(playAll).toBeEnabled()
  await expect(playAll).toHaveAccessibleDescription(/^3 (tracks|episodes) downloaded$/)
  await player.slowDown()
  await playAll.click()
  await expect(player.title).toHaveText(titles[0]!)
  await expect(player.artist).toHaveText(nameOf(artist))
  await expect(player.pause).toBeVisible()
  // The row of the track playing is marked, for the eye and for screen readers; no other row is.
  await expect(screen.track(one.uploadId)).toHaveAttribute('aria-current', 'true')
  await expect(screen.track(one.uploadId).getByTestId('now-playing')).toBeVisible()
  await expect(screen.trackTitle(one.uploadId)).toHaveText(`Now playing: ${titles[0]}`)
  await expect(screen.tracks.locator('li[aria-current]')).toHaveCount(1)

  // The queue: the three in the artist's order, the first one current.
  await expect(player.queueButton).toHaveAttribute('aria-expanded', 'false')
  await player.queueButton.click()
  await expect(player.queueButton).toHaveAttribute('aria-expanded', 'true')
  await expect(player.queue).toBeVisible()
  await expect.poll(() => player.queueTitles()).toEqual(titles)
  await expect(player.queueCurrent).toContainText(titles[0]!)
  // The focus starts on the track playing.
  await expect(player.queueCurrent).toBeFocused()

  await player.next.click()
  await expect(player.title).toHaveText(titles[1]!)
  await expect(player.queueCurrent).toContainText(titles[1]!)
  await expect(screen.track(two.uploadId)).toHaveAttribute('aria-current', 'true')
  await expect(screen.track(one.uploadId)).not.toHaveAttribute('aria-current', /.*/)
  // Early in a track, Previous goes to the one before.
  await player.previous.click()
  await expect(player.title).toHaveText(titles[0]!)
  // A click in the queue plays that entry.
  await player.queueEntry(2).click()
  await expect(player.title).toHaveText(titles[2]!)
  await expect(player.queueCurrent).toContainText(titles[2]!)

  // The last one, repeat off: nothing next. Repeat all: the first comes next; then one; then off.
  await expect(player.next).toBeDisabled()
  await expect(player.repeat).toHaveAttribute('aria-pressed', 'false')
  await player.repeat.click()
  await expect(player.repeat).toHaveAttribute('aria-pressed', 'true')
  await expect(player.repeat).toHaveAccessibleDescription('Repeat: the whole queue')
  await expect(player.next).toBeEnabled()
  await player.next.click()
  await expect(player.title).toHaveText(titles[0]!)
  // Paused from here on, so no track ends while the modes are checked.
  await player.pause.click()
  await expect(player.play).toBeVisible()
  await player.repeat.click()
  await expect(player.repeat).toHaveAttribute('data-repeat', 'one')
  await expect(player.repeat).toHaveAccessibleDescription('Repeat: this track')
  await player.repeat.click()
  await expect(player.repeat).toHaveAttribute('aria-pressed', 'false')

  // Shuffle keeps the track playing, first in the shuffled queue; off, the artist's order again at the same track.
  await player.shuffle.click()
  await expect(player.shuffle).toHaveAttribute('aria-pressed', 'true')
  await expect(player.title).toHaveText(titles[0]!)
  await expect(player.queue.getByText('Shuffled')).toBeVisible()
  await expect(player.queueEntries.first().locator('button[aria-current="true"]')).toBeVisible()
  await expect.poll(async () => (await player.queueTitles()).sort()).toEqual([...titles].sort())
  await player.shuffle.click()
  await expect(player.shuffle).toHaveAttribute('aria-pressed', 'false')
  await expect.poll(() => player.queueTitles()).toEqual(titles)
  await expect(player.queueCurrent).toContainText(titles[0]!)

  // Shuffle and repeat are kept for the next session.
  await player.shuffle.click()
  await player.repeat.click()
  await page.reload()
  await screen.open(artist.username)
  await player.slowDown()
  await playAll.click()
  await expect(player.shuffle).toHaveAttribute('aria-pressed', 'true')
  await expect(player.repeat).toHaveAttribute('data-repeat', 'all')
  await player.queueButton.click()

  // Screenshots with the queue open (shuffled, repeating), in light and dark.
  await expect(player.queueEntries).toHaveCount(3)
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect.poll(() => screen.shell.drawnTheme()).toBe(scheme)
    await screen.shell.screenshot(`player-queue-${scheme}`)
    expect(await screen.shell.seriousViolations()).toEqual([])
  }
  await player.shuffle.click()
  await player.repeat.click()
  await player.repeat.click()
  await expect(player.repeat).toHaveAttribute('data-repeat', 'off')
  await expect(player.shuffle).toHaveAttribute('aria-pressed', 'false')
  await player.queueEntry(0).click()
  await expect(player.queueCurrent).toContainText(titles[0]!)
  await player.pause.click()

  // Remove an entry that is not playing; the current one has no Remove.
  await expect(player.queueEntries.first().getByRole('button', { name: /^Remove / })).toHaveCount(0)
  await player.queue.getByRole('button', { name: `Remove ${titles[1]} from the queue` }).click()
  await expect.poll(() => player.queueTitles()).toEqual([titles[0], titles[2]])
  // Escape closes the panel and gives the focus back to its button.
  await page.keyboard.press('Escape')
  await expect(player.queue).toHaveCount(0)
  await expect(player.queueButton).toBeFocused()
  await expect(player.queueButton).toHaveAttribute('aria-expanded', 'false')
  expect(app.errors).toEqual([])
})

test('Space plays and pauses from anywhere in the window, but types a space in a text field', async ({ app, page, demo, bridge }) => {
  test.setTimeout(90_000)
  const { artist, tracks } = await pickUntouched(demo, bridge, (list) => list.length <= 15 && wavsOf(list).length >= 1)
  const [wav] = wavsOf(tracks) as [TrackRecord]
  await downloadNow(bridge, [wav.uploadId])

  const screen = new ArtistPage(page, app.url)
  const player = new PlayerBar(page)
  await screen.open(artist.username)
  await player.slowDown()
  await screen.trackButton(wav.uploadId, 'Play').click()
  await expect(player.pause).toBeVisible()

  // The artists list, with the focus on its content (no control): Space pauses, and plays again.
  await screen.shell.navLink('Artists').click()
  const search = page.getByRole('searchbox').first()
  await expect(search).toBeVisible()
  await screen.shell.content.focus()
  await page.keyboard.press(' ')
  await expect(player.play).toBeVisible()
  expect(await player.audio.evaluate((element: HTMLAudioElement) => element.paused)).toBe(true)
  await page.keyboard.press(' ')
  await expect(player.pause).toBeVisible()
  expect(await player.audio.evaluate((element: HTMLAudioElement) => element.paused)).toBe(false)

  // In the search field, Space is a space.
  await search.fill('a')
  await search.press(' ')
  await expect(search).toHaveValue('a ')
  await expect(player.pause).toBeVisible()
  await search.fill('')
  // On a button, Space presses that button (here: the player's own Pause), once.
  await player.pause.focus()
  await page.keyboard.press(' ')
  await expect(player.play).toBeVisible()
  expect(app.errors).toEqual([])
})

test('plays a downloaded file of every type the demo serves, each to its end', async ({ app, page, demo, bridge }) => {
  test.setTimeout(90_000)
  // One track of each type (the first in the artist's order), titles told apart, all the artist has downloaded.
  const oneOfEach = (list: TrackRecord[]): TrackRecord[] => list.filter((track, index) => list.findIndex((other) => other.ext === track.ext) === index)
  const { artist, tracks } = await pickUntouched(demo, bridge, (list) => oneOfEach(list).length === 5 && distinctTitles(oneOfEach(list)))
  const chosen = oneOfEach(tracks)
  await downloadNow(bridge, chosen.map((track) => track.uploadId))

  const screen = new ArtistPage(page, app.url)
  const player = new PlayerBar(page)
  await screen.open(artist.username)
  await page.getByRole('button', { name: 'Play all' }).click()
  // Each plays its second of tone in turn; one that could not be played would be skipped with a notice.
  await expect(player.title).toHaveText(shown(chosen.at(-1)!.title), { timeout: 30_000 })
  await expect.poll(() => player.audio.evaluate((element: HTMLAudioElement) => element.ended), { timeout: 10_000 }).toBe(true)
  expect(await player.audio.evaluate((element: HTMLAudioElement) => [element.error, element.duration])).toEqual([null, expect.closeTo(1, 0)])
  await expect(screen.shell.messages).not.toContainText(/could not be played|Could not play/)
  expect(app.errors).toEqual([])
})

/** A long right-to-left artist name and title, as a person might have them. */
const RTL_ARTIST = 'فرقة الموسيقى الشرقية الحديثة جداً مع اسم طويل جداً جداً يتجاوز حدود الشاشة'
const RTL_TITLE = 'أغنية طويلة جداً عن الليل والبحر والمدينة القديمة وما بعدها'

test('in an 800×600 window the bar fits, the queue panel open or not; long right-to-left names are cut at their end; the panel leaves the messages usable', async ({ app, page, demo, bridge }) => {
  test.setTimeout(120_000)
  const { artist, tracks } = await pickUntouched(demo, bridge, (list) => list.length <= 15 && wavsOf(list).length === 2 && distinctTitles(wavsOf(list)))
  const wavs = wavsOf(tracks)
  await downloadNow(bridge, wavs.map((track) => track.uploadId))

  await page.setViewportSize({ width: 800, height: 600 })
  const screen = new ArtistPage(page, app.url)
  const player = new PlayerBar(page)
  await screen.open(artist.username)
  await player.slowDown()
  await page.getByRole('button', { name: 'Play all' }).click()
  await expect(player.pause).toBeVisible()
  // Paused, so nothing moves while the layout is measured.
  await player.pause.click()
  await expect(player.play).toBeVisible()
  await player.rename(RTL_TITLE, RTL_ARTIST)
  await screen.shell.showMessages('error', ['Could not save', 'Could not move', `Could not play "${RTL_TITLE}"`])

  const fits = async (): Promise<void> => {
    const extent = await player.extent()
    expect(extent.barRight).toBeLessThanOrEqual(extent.innerWidth)
    expect(extent.closeRight).toBeLessThanOrEqual(extent.innerWidth)
    expect(extent.scrollWidth).toBeLessThanOrEqual(extent.innerWidth)
  }
  await fits()
  await expect(player.close).toBeInViewport({ ratio: 1 })
  await expect(player.seek).toBeVisible()
  // The volume's slider opens from its button in a bar this narrow, and sets the volume.
  await player.mute.hover()
  await expect(player.volume).toBeVisible()
  await player.volume.fill('40')
  expect(await player.audio.evaluate((element: HTMLAudioElement) => element.volume)).toBeCloseTo(0.4)
  // Closed again once neither the pointer nor the focus is on it.
  await screen.shell.content.focus()
  await page.mouse.move(10, 10)
  await expect(player.volume).toBeHidden()
  await player.mute.focus()
  await page.keyboard.press('Tab')
  await expect(player.volume).toBeFocused()
  await expect(player.volume).toBeVisible()
  await mkdir(screenshotDir, { recursive: true })
  await page.screenshot({ path: join(screenshotDir, 'player-800x600-volume-light.png'), animations: 'disabled', caret: 'hide' })

  // A right-to-left name keeps its direction, one line, cut at its own end (bdi).
  for (const name of [player.artist, player.title]) {
    expect(await name.evaluate((element) => [element.tagName, getComputedStyle(element).direction, element.scrollWidth > element.clientWidth])).toEqual(['BDI', 'rtl', true])
  }
  const message = screen.shell.message(/Could not play/)
  await expect(message.locator('.title bdi')).toHaveText(RTL_TITLE)

  await player.queueButton.click()
  await expect(player.queue).toBeVisible()
  await fits()
  await expect(player.queueEntries.first().locator('bdi.artist')).toHaveText(RTL_ARTIST)
  expect(await player.queueEntries.first().locator('bdi.artist').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl')
  // The panel opens above the messages: it covers none of them, and its entries stay in the window.
  const [panel, messages] = [await player.queue.boundingBox(), await screen.shell.messages.boundingBox()]
  expect(panel!.y + panel!.height).toBeLessThanOrEqual(messages!.y + 1)
  expect(panel!.y).toBeGreaterThanOrEqual(0)
  const dismiss = message.getByRole('button', { name: /^Dismiss/ })
  await dismiss.click({ trial: true })

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect.poll(() => screen.shell.drawnTheme()).toBe(scheme)
    await screen.shell.screenshot(`player-800-queue-${scheme}`)
    // And the window as it is, 600 high (the shell's screenshot grows it to the content).
    await page.screenshot({ path: join(screenshotDir, `player-800x600-queue-${scheme}.png`), animations: 'disabled', caret: 'hide' })
  }
  // A press on a message (its text here; its ✕ below) leaves the panel open: the panel made room for them.
  await message.click({ position: { x: 8, y: 8 } })
  await expect(player.queue).toBeVisible()
  await player.queueButton.click()
  await expect(player.queue).toHaveCount(0)
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect.poll(() => screen.shell.drawnTheme()).toBe(scheme)
    await screen.shell.screenshot(`player-800-${scheme}`)
  }
  await dismiss.click()
  await expect(message).toHaveCount(0)

  // A wide window: the bar as it always was, the volume's slider in it.
  await page.setViewportSize({ width: 1280, height: 800 })
  await fits()
  await expect(player.volume).toBeVisible()
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect.poll(() => screen.shell.drawnTheme()).toBe(scheme)
    await screen.shell.screenshot(`player-1280-${scheme}`)
  }
  expect(app.errors).toEqual([])
})

/**
 * Tracks to download from `list` whose play order alternates playable and unplayable files: a WAV, a
 * file to make no sound (every demo file is real audio: the test writes over it), a WAV, two more to
 * make no sound, a WAV, each title told apart from the others; null when the list has no such run.
 */
function alternating(list: TrackRecord[]): TrackRecord[] | null {
  const wavs = list.flatMap((track, index) => (track.ext === 'wav' ? [index] : []))
  for (let at = 0; at + 2 < wavs.length; at++) {
    const [a, b, c] = [wavs[at]!, wavs[at + 1]!, wavs[at + 2]!]
    const titles = new Set([a, b, c].map((index) => shown(list[index]!.title)))
    const noSound = (from: number, to: number, count: number): TrackRecord[] => {
      const found = list.slice(from + 1, to).filter((track) => !titles.has(shown(track.title)) && titles.add(shown(track.title)))
      return found.length >= count ? found.slice(0, count) : []
    }
    const [first, second] = [noSound(a, b, 1), noSound(b, c, 2)]
    if (first.length === 1 && second.length === 2) return [list[a]!, first[0]!, list[b]!, second[0]!, second[1]!, list[c]!]
  }
  return null
}

test('files that cannot be played are skipped with one notice, and the queue goes on', async ({ app, page, demo, bridge }) => {
  test.setTimeout(90_000)
  const { artist, tracks } = await pickUntouched(demo, bridge, (list) => list.length <= 15 && alternating(list) !== null)
  // Played in this order: a WAV, a file that is no sound, a WAV, another that is no sound and one gone from the disk, a WAV.
  const [one, noSound, two, alsoNoSound, gone, three] = alternating(tracks) as [TrackRecord, TrackRecord, TrackRecord, TrackRecord, TrackRecord, TrackRecord]
  const downloads = await downloadNow(bridge, [one, noSound, two, alsoNoSound, gone, three].map((track) => track.uploadId))
  const fileOf = (track: TrackRecord): string => downloads.find((download) => download.uploadId === track.uploadId)!.targetPath

  const screen = new ArtistPage(page, app.url)
  const player = new PlayerBar(page)
  await screen.open(artist.username)
  const playAll = page.getByRole('button', { name: 'Play all' })
  await expect(playAll).toHaveAccessibleDescription(/^6 (tracks|episodes) downloaded$/)
  // Gone after the screen read the queue; the two others no sound alike (whatever their format, one reason).
  await rm(fileOf(gone))
  for (const track of [noSound, alsoNoSound]) await writeFile(fileOf(track), 'this is not a sound file')
  await playAll.click()

  // The WAVs play in turn (about a second each), the others are skipped on the way.
  await expect(player.title).toHaveText(shown(three.title), { timeout: 20_000 })
  const notice = screen.shell.message(/could not be played/)
  await expect(notice).toContainText('Skipped 3 tracks that could not be played', { timeout: 10_000 })
  // ONE notice for the queue, not one per run of skipped files; each reason said once.
  await expect(screen.shell.messages.locator('.notice')).toHaveCount(1)
  await expect(notice).toContainText(`"${shown(noSound.title)}" and "${shown(alsoNoSound.title)}": the file`)
  await expect(notice).toContainText(`"${shown(gone.title)}": the file is no longer at`)
  expect(((await notice.textContent()) ?? '').match(/this player/g)).toHaveLength(1)
  // The file gone offers to download it again.
  await expect(screen.trackButton(gone.uploadId, 'Play')).toHaveCount(0)

  // Playing again is a new queue: its own notice, counted afresh, in the place of the last one.
  await writeFile(fileOf(two), 'this is not a sound file')
  await screen.trackButton(two.uploadId, 'Play').click()
  await expect(notice).toContainText('Skipped 2 tracks that could not be played', { timeout: 10_000 })
  await expect(notice).toContainText(`"${shown(two.title)}"`)
  await expect(notice).not.toContainText(`"${shown(noSound.title)}"`)
  await expect(screen.shell.messages.locator('.notice')).toHaveCount(1)
  expect(app.errors).toEqual([])
})

test('a downloaded file that is gone from the disk is a message when played, and the track offers to download it again', async ({ app, page, demo, bridge }) => {
  const { artist, tracks } = await pickUntouched(demo, bridge, (list) => list.length <= 12 && wavsOf(list).length === 1)
  const wav = wavsOf(tracks)[0]!
  const [download] = await downloadNow(bridge, [wav.uploadId])

  const screen = new ArtistPage(page, app.url)
  await screen.open(artist.username)
  // Gone after the screen read the queue (a file found gone when the list is read offers "Download again" at once).
  await expect(screen.trackButton(wav.uploadId, 'Play')).toBeVisible()
  await rm(download!.targetPath)
  await screen.trackButton(wav.uploadId, 'Play').click()
  await expect(screen.shell.message(/Could not play/)).toContainText('no longer at')
  await expect(screen.shell.messages.locator('.notice')).toHaveCount(1)
  await expect(new PlayerBar(page).region).toHaveCount(0)
  await expect(screen.trackButton(wav.uploadId, 'Play')).toHaveCount(0)
})

test('a reload puts the queue, the track and its place back in the bar, paused; Play goes on from there', async ({ app, page, demo, bridge }) => {
  test.setTimeout(90_000)
  const { artist, tracks } = await pickUntouched(demo, bridge, (list) => list.length <= 15 && wavsOf(list).length >= 3 && distinctTitles(wavsOf(list).slice(0, 3)))
  const three = wavsOf(tracks).slice(0, 3)
  const titles = three.map((track) => shown(track.title))
  const downloaded = await downloadNow(bridge, three.map((track) => track.uploadId))
  const downloadOf = (track: TrackRecord) => downloaded.find((download) => download.uploadId === track.uploadId)!

  const screen = new ArtistPage(page, app.url)
  const player = new PlayerBar(page)
  await screen.open(artist.username)
  await player.slowDown()
  await page.getByRole('button', { name: 'Play all' }).click()
  await player.next.click()
  await expect(player.title).toHaveText(titles[1]!)
  await expect(player.pause).toBeVisible()
  // Sought to the middle of the second track, and reloaded while it plays.
  const duration = Number(await player.seek.getAttribute('max'))
  expect(duration).toBeGreaterThan(0.4)
  await player.seek.fill(String(duration / 2))
  await expect.poll(() => player.position()).toBeGreaterThanOrEqual(duration / 2 - 0.01)
  await player.queueButton.click()
  await expect.poll(() => player.queueTitles()).toEqual(titles)
  await app.screenshot('player-before-reload')
  const before = await player.audio.evaluate((element: HTMLAudioElement) => element.currentTime)

  await page.reload()
  // The same track in the bar, paused, where it was (at a tenth of the speed, it moved little meanwhile).
  await expect(player.region).toBeVisible()
  await expect(player.title).toHaveText(titles[1]!)
  await expect(player.artist).toHaveText(nameOf(artist))
  await expect(player.play).toBeVisible()
  await expect(player.seek).toHaveAttribute('aria-valuetext', /^\d+:\d\d of \d+:\d\d$/)
  const restored = await player.position()
  expect(restored).toBeGreaterThanOrEqual(duration / 2 - 0.01)
  expect(restored).toBeLessThanOrEqual(before + 0.3)
  const element = await player.audio.evaluate((audio: HTMLAudioElement) => ({ paused: audio.paused, at: audio.currentTime }))
  expect(element.paused).toBe(true)
  expect(element.at).toBeCloseTo(restored, 1)
  // It stays paused: nothing plays by itself after a reload.
  await page.waitForTimeout(500)
  expect(await player.audio.evaluate((audio: HTMLAudioElement) => audio.paused)).toBe(true)
  expect(await player.position()).toBe(restored)
  // The same queue, the same entry current; the track row is marked on the artist's screen.
  await player.queueButton.click()
  await expect.poll(() => player.queueTitles()).toEqual(titles)
  await expect(player.queueCurrent).toContainText(titles[1]!)
  await expect(screen.track(three[1]!.uploadId)).toHaveAttribute('aria-current', 'true')
  await app.screenshot('player-after-reload')

  // Play goes on from that place, then on through the queue.
  await player.slowDown()
  await player.play.click()
  await expect(player.pause).toBeVisible()
  await expect.poll(() => player.position()).toBeGreaterThan(restored)
  await player.next.click()
  await expect(player.title).toHaveText(titles[2]!)

  // Between sessions, the first download is taken off the list and the second one's file deleted:
  // both leave the queue put back, without a message (nothing was asked to play them).
  valueOf(await bridge.call('downloads:remove', [downloadOf(three[0]!).id]))
  await rm(downloadOf(three[1]!).targetPath)
  await page.reload()
  await expect(player.title).toHaveText(titles[2]!)
  await expect(player.play).toBeVisible()
  await player.queueButton.click()
  await expect.poll(() => player.queueTitles()).toEqual([titles[2]!])
  await expect(page.locator('[data-messages] .notice')).toHaveCount(0)
  await app.screenshot('player-after-reload-tracks-gone')
  expect(app.errors).toEqual([])
})
