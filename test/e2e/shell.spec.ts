// The window around the screens: a change of screen opens it at its top with the focus on its
// heading, and Back puts it where it was; Back and Forward by keyboard and mouse buttons; the
// messages (in words, closing by themselves, folded, never over the content); what the window
// says when the service goes away (downloads wait, a failed sync runs again once it is back) and
// when `npm run web` stops; one palette drawn in both themes.
import { writeFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import { ArtistPage } from './support/artist-page'
import { ArtistsPage } from './support/artists-page'
import { downloadNow, ensureSynced, pickArtist } from './support/catalogue-picks'
import { expect, test } from './support/fixtures'
import { startBridgeProxy } from './support/bridge-proxy'
import { startIsolatedApp, type IsolatedApp } from './support/isolated-app'
import { PlayerBar } from './support/player-bar'
import { ShellPage } from './support/shell-page'

test.describe.configure({ timeout: 120_000 })

/** Screenshots of the shell as it is, in both themes. */
async function screenshots(page: Page, shell: ShellPage, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    await shell.screenshot(`${name}-${theme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** An isolated app, closed however the test ends. */
async function withOwnApp(options: Parameters<typeof startIsolatedApp>[0], run: (own: IsolatedApp) => Promise<void>): Promise<void> {
  const own = await startIsolatedApp(options)
  try {
    await run(own)
  } finally {
    await own.close()
  }
}

test.describe('a change of screen', () => {
  test('every screen\'s code is loaded once the first screen is up, before any other is opened', async ({ page, bridge }) => {
    await page.goto(`${bridge.url}#/tiers`)
    await expect(page.getByRole('heading', { level: 1, name: 'Tiers' })).toBeVisible()
    const loaded = (): Promise<string[]> => page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name))
    for (const view of ['artists-view', 'artist-view', 'whats-new-view', 'downloads-view', 'tiers-view', 'settings-view']) {
      await expect.poll(async () => (await loaded()).some((name) => new RegExp(`/assets/${view}-[\\w-]+\\.js$`).test(name)), { message: view }).toBe(true)
    }
    expect(page.url()).toContain('#/tiers')
  })

  test('opens the new screen at its top with the focus on its heading; Back puts the old one where it was left', async ({ page, demo, bridge }) => {
    await ensureSynced(bridge)
    await page.setViewportSize({ width: 800, height: 600 })
    const { artist } = pickArtist(demo, (_candidate, tracks) => tracks.length >= 40)
    const screen = new ArtistPage(page, bridge.url)
    const shell = screen.shell
    await screen.open(artist.username)
    await expect(screen.name).toBeVisible()
    const left = await shell.scrollContentTo(900)
    expect(left).toBeGreaterThan(600)

    await shell.navLink('Settings').click()
    await expect(shell.heading).toHaveText('Settings')
    await expect(shell.heading).toBeFocused()
    await expect(shell.heading).toBeInViewport()
    expect(await shell.contentScrollTop()).toBe(0)

    await page.goBack()
    await expect(screen.name).toBeVisible()
    await expect.poll(() => shell.contentScrollTop()).toBe(left)
    await expect(screen.name).toBeFocused()
    await page.goForward()
    await expect(shell.heading).toHaveText('Settings')
    await expect.poll(() => shell.contentScrollTop()).toBe(0)
  })

  test('by keyboard and mouse buttons: Escape, Backspace and Alt+Left go back from an artist, Alt+Right and the forward button go on', async ({
    page,
    demo,
    bridge,
  }) => {
    await ensureSynced(bridge)
    const { artist } = pickArtist(demo, (_candidate, tracks) => tracks.length >= 3)
    const shell = new ShellPage(page, bridge.url)
    const artists = new ArtistsPage(page, bridge.url)
    await artists.open()
    await artists.search.fill(artist.username)
    await artists.row(artist.username).click()
    const artistHeading = shell.heading
    await expect(artistHeading).not.toHaveText('Artists')
    // The focus is on the artist's heading, not lost to the page's body.
    await expect(artistHeading).toBeFocused()

    const keys = ['Escape', 'Backspace', 'Alt+ArrowLeft'] as const
    for (const key of keys) {
      await page.keyboard.press(key)
      await expect(shell.heading, `${key} goes back`).toHaveText('Artists')
      await expect(page).toHaveURL(/#\/artists$/)
      await page.keyboard.press('Alt+ArrowRight')
      await expect(page, 'Alt+Right goes forward').toHaveURL(new RegExp(`#/artists/${encodeURIComponent(artist.username)}$`))
      await expect(shell.heading).toBeFocused()
    }
    await shell.mouseButton(3)
    await expect(page).toHaveURL(/#\/artists$/)
    await shell.mouseButton(4)
    await expect(page).toHaveURL(new RegExp(`#/artists/${encodeURIComponent(artist.username)}$`))

    // On the Artists list, Backspace and Escape are the list's own (and typing into its search box is typing).
    await page.keyboard.press('Alt+ArrowLeft')
    await expect(shell.heading).toHaveText('Artists')
    await artists.search.fill('ab')
    await page.keyboard.press('Backspace')
    await expect(artists.search).toHaveValue('a')
    await expect(page).toHaveURL(/#\/artists$/)
  })

  test('Back from an artist opened by its address goes up to Artists', async ({ page, demo, bridge }) => {
    await ensureSynced(bridge)
    const { artist } = pickArtist(demo, (_candidate, tracks) => tracks.length >= 1)
    await page.goto(`${bridge.url}#/artists/${encodeURIComponent(artist.username)}`)
    const shell = new ShellPage(page, bridge.url)
    await expect(shell.heading).not.toHaveText('Artists')
    await page.keyboard.press('Escape')
    await expect(page).toHaveURL(/#\/artists$/)
    await expect(shell.heading).toHaveText('Artists')
  })
})

test.describe('messages', () => {
  test('notes close by themselves (not while read); errors stay, the latest three shown and the rest folded; none covers the content', async ({
    page,
    bridge,
  }) => {
    await page.setViewportSize({ width: 800, height: 600 })
    // The page's clock runs on its own, and jumps ahead where the test would otherwise wait for notes to time out.
    await page.clock.install()
    const shell = new ShellPage(page, bridge.url)
    await shell.open('settings')
    await expect(shell.heading).toHaveText('Settings')

    await shell.showMessages('note', ['Saved'])
    await expect(shell.message('Saved')).toBeVisible()
    // Read: the pointer on it keeps it.
    await shell.message('Saved').hover()
    await page.clock.runFor(7_000)
    await expect(shell.message('Saved')).toBeVisible()
    await page.mouse.move(5, 5)
    await page.clock.runFor(7_000)
    await expect(shell.message('Saved')).toHaveCount(0)

    await shell.showMessages('error', ['First', 'Second', 'Third', 'Fourth', 'Fifth'])
    await expect(shell.messages.locator('.notice.error')).toHaveCount(3)
    await expect(shell.message('Fifth')).toBeVisible()
    await expect(shell.message('First')).toHaveCount(0)
    await expect(shell.foldedMessages).toHaveText(/and 2 more messages/)
    await page.clock.runFor(7_000)
    await expect(shell.messages.locator('.notice.error')).toHaveCount(3)

    // Below the content, never over it: every button of the screen can still be clicked.
    const content = await shell.content.boundingBox()
    const messages = await shell.messages.boundingBox()
    expect(content!.y + content!.height).toBeLessThanOrEqual(messages!.y + 1)
    const button = shell.content.getByRole('button').first()
    await button.scrollIntoViewIfNeeded()
    await expect(button).toBeInViewport()
    await screenshots(page, shell, 'shell-messages')
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await page.screenshot({ path: `test-results/screenshots/small-window/shell-messages-${theme}.png` })
    }
    await page.emulateMedia({ colorScheme: 'light' })

    await shell.foldedMessages.getByRole('button').click()
    await expect(shell.foldedMessages).toHaveCount(0)
    // From the keyboard: each ✕ pressed hands the focus to the ✕ of the message now in its place, then of the one
    // before; the last one to the screen's heading, never to the page.
    const dismiss = (title: string) => shell.message(title).getByRole('button', { name: /^Dismiss/ })
    await expect(shell.messages.locator('.notice')).toHaveCount(3)
    await dismiss('Fourth').focus()
    await page.keyboard.press('Enter')
    await expect(shell.message('Fourth')).toHaveCount(0)
    await expect(dismiss('Fifth')).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(dismiss('Third')).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(shell.messages.locator('.notice')).toHaveCount(0)
    await expect(shell.heading).toBeFocused()
  })

  test('a track the player moves on to and cannot play is a message in words', async ({ page, demo, bridge }) => {
    await ensureSynced(bridge)
    // A WAV (a second of tone), then straight after it in the artist's order a track whose downloaded file
    // is made no sound (every demo file is real audio), of an artist none of whose tracks another spec queued
    // (they share this worker's download queue): those two are all the player has, so after the broken one
    // nothing plays and it says "Could not play".
    const listed = await bridge.call('downloads:list')
    if (!listed.ok) throw new Error(listed.error.message)
    const queuedBefore = new Set(listed.value.map((download) => download.uploadId))
    const { artist, tracks } = pickArtist(
      demo,
      (_candidate, list) =>
        list.every((track) => !queuedBefore.has(track.uploadId)) &&
        list.some((track, index) => track.ext === 'wav' && (list[index + 1]?.ext ?? 'wav') !== 'wav'),
    )
    const index = tracks.findIndex((track, at) => track.ext === 'wav' && (tracks[at + 1]?.ext ?? 'wav') !== 'wav')
    const [wav, broken] = [tracks[index]!, tracks[index + 1]!]
    const downloads = await downloadNow(bridge, [wav.uploadId, broken.uploadId])
    await writeFile(downloads.find((download) => download.uploadId === broken.uploadId)!.targetPath, 'this is not a sound file')

    const screen = new ArtistPage(page, bridge.url)
    const player = new PlayerBar(page)
    await screen.open(artist.username)
    await screen.trackButton(wav.uploadId, 'Play').click()
    const title = broken.title.trim() === '' ? 'Untitled' : broken.title
    const message = screen.shell.message(new RegExp(`^Could not play "${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`))
    await expect(message).toBeVisible({ timeout: 20_000 })
    await expect(message).toContainText('File error')
    await expect(message.locator('.message')).toHaveText(/the file is (damaged|missing)/)
    await expect(screen.shell.messages).not.toContainText('[object Object]')
    await expect(player.region).toBeVisible()
  })
})

test.describe('with the service gone', () => {
  test('a background sync that cannot reach it is a message in words, and runs again by itself once it is back', async ({ page }) => {
    test.setTimeout(180_000)
    // The first sync (on start) is slow enough to be under way when the service goes.
    await withOwnApp({ beforeStart: (demo) => demo.faults.add({ path: '/api/v1/artists*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 4000 } }) }, async (own) => {
      const shell = new ShellPage(page, own.url())
      await shell.open('artists')
      await expect(shell.syncStatus).toContainText('Syncing')
      await own.stopDemo()

      const failed = shell.message('The service cannot be reached')
      await expect(failed).toBeVisible({ timeout: 60_000 })
      await expect(failed.locator('.message')).toHaveText(/^the sync of http:\/\/127\.0\.0\.1:\d+ failed: GET .*ECONNREFUSED/)
      await expect(shell.messages).not.toContainText('[object Object]')
      await expect(shell.offlineBanner).toBeVisible({ timeout: 30_000 })
      await expect(shell.syncStatus).toContainText('Sync failed')
      await screenshots(page, shell, 'shell-offline-sync-failed')

      // Back: the window catches up by itself, as the banner says.
      await own.restartDemo()
      await expect(shell.offlineBanner).toBeHidden({ timeout: 30_000 })
      await expect(shell.syncStatus).toContainText(/^Synced/, { timeout: 60_000 })
    })
  })

  test('a download waits for the network (not failed) and goes on by itself once the service is back', async ({ page }) => {
    test.setTimeout(180_000)
    await withOwnApp({}, async (own) => {
      const shell = new ShellPage(page, own.url())
      await shell.open('downloads')
      await shell.waitForSynced()
      // The largest file of the small demo, sent slowly: still under way when the service goes.
      const big = own.demo.catalogue.artists
        .flatMap((artist) => own.demo.catalogue.tracksOf(artist))
        .sort((a, b) => b.bytes - a.bytes)[0]!
      own.demo.faults.add({ path: '/hotlink/*', times: 1000, fault: { kind: 'slow', bytesPerSecond: 100_000 } })
      const queued = await own.bridge.call('downloads:enqueue', { uploadIds: [big.uploadId] })
      if (!queued.ok) throw new Error(queued.error.message)
      const id = queued.value.downloads[0]!.id
      const row = async () => {
        const list = await own.bridge.call('downloads:list')
        if (!list.ok) throw new Error(list.error.message)
        return list.value.find((download) => download.id === id)!
      }
      await expect.poll(async () => (await row()).bytesDone).toBeGreaterThan(0)

      const stopped = Date.now()
      await own.stopDemo()
      await expect.poll(async () => (await row()).waitingFor, { timeout: 10_000 }).toBe('network')
      expect(Date.now() - stopped).toBeLessThan(10_000)
      expect(await row()).toMatchObject({ state: 'queued', waitingFor: 'network' })
      await expect(shell.offlineBanner).toBeVisible({ timeout: 30_000 })
      await screenshots(page, shell, 'shell-offline-download-waiting')

      await own.restartDemo()
      await expect.poll(async () => (await row()).state, { timeout: 60_000 }).toBe('completed')
      expect(await row()).toMatchObject({ waitingFor: null, error: null })
      await expect(shell.offlineBanner).toBeHidden({ timeout: 30_000 })
    })
  })
})

test.describe('when `npm run web` stops', () => {
  test('the window says so across its width, and comes back by itself when the bridge does on the same address', async ({ page, bridge }) => {
    const proxy = await startBridgeProxy(bridge.url)
    try {
      const shell = new ShellPage(page, proxy.url)
      await shell.open('artists')
      await expect(shell.heading).toHaveText('Artists')
      // Gone as a stopped bridge goes: the stream cut, every new connection refused.
      await proxy.stop()
      await expect(shell.bridgeStopped).toBeVisible({ timeout: 15_000 })
      await expect(shell.bridgeStopped).toContainText('Tuneshelf stopped')
      await expect(page.locator('.shell')).toHaveAttribute('inert', '')
      await proxy.start()
      await expect(shell.bridgeStopped).toBeHidden({ timeout: 15_000 })
      await expect(page.locator('.shell')).not.toHaveAttribute('inert')
      await shell.navLink('Settings').click()
      // The Settings screen's code is fetched on this first visit, from the bridge just back.
      await expect(shell.heading).toHaveText('Settings', { timeout: 15_000 })
    } finally {
      await proxy.stop()
    }
  })

  test('a bridge started again on the same port with another token: the window says to open its new address', async ({ page, bridge }) => {
    const proxy = await startBridgeProxy(bridge.url)
    const other = await startIsolatedApp()
    try {
      const shell = new ShellPage(page, proxy.url)
      await shell.open('artists')
      await expect(shell.heading).toHaveText('Artists')
      await proxy.stop()
      await proxy.start(other.url())
      await expect(shell.bridgeStopped).toBeVisible({ timeout: 15_000 })
      await expect(shell.bridgeStopped).toContainText('It was started again, with a new address')
    } finally {
      await proxy.stop()
      await other.close()
    }
  })

  test('a bridge that really stopped: the state names what to do', async ({ page }) => {
    const own = await startIsolatedApp()
    try {
      const shell = new ShellPage(page, own.url())
      await shell.open('artists')
      await shell.waitForSynced()
      await own.bridge.stop()
      await expect(shell.bridgeStopped).toBeVisible({ timeout: 15_000 })
      await expect(shell.bridgeStopped).toContainText('Start npm run web again, then open the address it prints')
      const box = await shell.bridgeStopped.boundingBox()
      expect(box!.width).toBe(page.viewportSize()!.width)
      await screenshots(page, shell, 'shell-bridge-stopped')
    } finally {
      await own.close()
    }
  })
})

test.describe('the palette', () => {
  test('is the same dark whether the system or the setting asks for it, and light otherwise', async ({ page, bridge }) => {
    const shell = new ShellPage(page, bridge.url)
    await shell.open('settings')
    const drawn = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.documentElement)
        const nav = getComputedStyle(document.querySelector('nav')!)
        return { scheme: getComputedStyle(document.documentElement).colorScheme, bg: style.backgroundColor, text: style.color, nav: nav.backgroundColor }
      })
    const setTheme = (theme: 'light' | 'dark' | null) =>
      page.evaluate((value) => {
        if (value) document.documentElement.dataset['theme'] = value
        else delete document.documentElement.dataset['theme']
      }, theme)

    await page.emulateMedia({ colorScheme: 'light' })
    await setTheme(null)
    const light = await drawn()
    await page.emulateMedia({ colorScheme: 'dark' })
    const systemDark = await drawn()
    await setTheme('light')
    expect(await drawn()).toEqual(light)
    await page.emulateMedia({ colorScheme: 'light' })
    await setTheme('dark')
    expect(await drawn()).toEqual(systemDark)
    expect(light.scheme).toBe('light')
    expect(systemDark.scheme).toBe('dark')
    expect(systemDark.bg).not.toBe(light.bg)
    expect(systemDark.text).not.toBe(light.text)
    await setTheme(null)
  })
})
