// Context menus, as a person opens them in `npm run web` (the window's own menu, no native one):
// by a right click and by the keyboard (the context-menu key, Shift+F10) on download rows (one row,
// or a selection), artist rows and track rows; arrow keys, Home, End, Enter and Escape (the focus
// back on the row); each item doing what the row's button does; items a browser cannot do there,
// disabled with the reason; the menu kept inside the window.
import { ArtistPage } from './support/artist-page'
import { ArtistsPage } from './support/artists-page'
import { valueOf } from './support/catalogue-ready'
import { pickArtist } from './support/catalogue-picks'
import { ContextMenuPage } from './support/context-menu'
import { ownQueue, queueInLine, rowOf } from './support/downloads-queue'
import { DownloadsPage } from './support/downloads-page'
import { FollowsPage } from './support/follows-page'
import { expect, test } from './support/fixtures'

test.describe('context menus', () => {
  test.describe.configure({ timeout: 90_000 })
  const own = ownQueue(test, 'tuneshelf-e2e-menus-')

  test('on download rows: by right click and by the keyboard, on a row and on a selection', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const menu = new ContextMenuPage(page)
    const ids = await queueInLine(own, bridge, demo, 3, 100)
    const [a, b, c] = ids as [number, number, number]
    await downloads.open()
    await expect(downloads.rowIn('Queued', c)).toBeVisible()

    // A right click on a queued row: its buttons' actions, then its moves; Move to bottom does what Bottom does.
    await menu.openOn(downloads.row(b), { x: 300, y: 20 })
    expect(await menu.labels()).toEqual(['Pause', 'Cancel', 'Remove', 'Move to top', 'Move to bottom'])
    await expect(menu.menu).toHaveAttribute('aria-label', /^Actions for "/)
    await menu.expectInsideWindow()
    await menu.choose('Move to bottom')
    await expect.poll(async () => downloads.group('Queued').locator('li[data-download-id]').evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.downloadId)))).toEqual([c, b])

    // The keyboard: Shift+F10 on the focused row, the first item focused; arrows, Home, End; Escape back to the row.
    await downloads.checkbox(c).focus()
    await page.keyboard.press('Shift+F10')
    await expect(menu.item('Pause')).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(menu.item('Cancel')).toBeFocused()
    await page.keyboard.press('End')
    await expect(menu.item('Move to bottom')).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(menu.item('Pause')).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(menu.item('Move to bottom')).toBeFocused()
    await page.keyboard.press('Home')
    await expect(menu.item('Pause')).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(menu.menu).toHaveCount(0)
    await expect(downloads.checkbox(c)).toBeFocused()
    // The context-menu key, and Enter: Pause does what the Pause button does.
    await page.keyboard.press('ContextMenu')
    await expect(menu.item('Pause')).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(menu.menu).toHaveCount(0)
    await expect(downloads.rowIn('Paused', c)).toBeVisible()
    // The screen shows the row moved at once; the core's own row follows when its answer is in.
    await expect.poll(async () => (await rowOf(bridge, c))!.state).toBe('paused')
    // The place is kept as for the button: the focus goes on to the next row of Queued, not to the page.
    await expect(downloads.row(b).locator(':focus')).toHaveCount(1)

    // A click outside closes it, and so does the wheel turned over the screen (the person scrolls away from the row).
    await menu.openOn(downloads.row(b))
    await page.mouse.click(5, 700)
    await expect(menu.menu).toHaveCount(0)
    // A row out of view: the right click scrolls it into view first, and that scroll does not close the menu it opens.
    await page.setViewportSize({ width: 1280, height: 320 })
    // Scrolled away from the row, whichever way the queue left above and below it has room for.
    await downloads.row(c).evaluate((row) => {
      const content = document.getElementById('content')!
      const top = row.getBoundingClientRect().top - content.getBoundingClientRect().top + content.scrollTop
      content.scrollTo(0, top > content.clientHeight ? 0 : content.scrollHeight)
    })
    await expect(downloads.row(c)).not.toBeInViewport()
    await menu.openOn(downloads.row(c), { x: 300, y: 20 })
    await expect(menu.item('Cancel')).toBeVisible()
    // A scroll the screen makes by itself does not close it: the menu moves with its row (up or down, whichever
    // way the list has room to go).
    const offset = async (): Promise<number> => (await menu.menu.boundingBox())!.y - (await downloads.row(c).boundingBox())!.y
    const before = await offset()
    const rowBefore = (await downloads.row(c).boundingBox())!.y
    await page.locator('#content').evaluate((content) => content.scrollBy(0, content.scrollTop > 0 ? -40 : 40))
    await expect.poll(async () => Math.abs((await downloads.row(c).boundingBox())!.y - rowBefore)).toBeGreaterThan(20)
    await expect.poll(offset).toBeCloseTo(before, 0)
    await expect(menu.item('Cancel')).toBeVisible()
    // The wheel turned over the screen closes it; the focus is back on the row, not dropped on the page.
    await page.mouse.move(1200, 160)
    await page.mouse.wheel(0, 40)
    await expect(menu.menu).toHaveCount(0)
    await expect(downloads.checkbox(c)).toBeFocused()
    // So does a resize of the window.
    await menu.openOn(downloads.row(c), { x: 300, y: 20 })
    await page.setViewportSize({ width: 1280, height: 800 })
    await expect(menu.menu).toHaveCount(0)
    await expect(downloads.checkbox(c)).toBeFocused()

    // On a row of a selection: the selection bar's actions, on the whole selection.
    await downloads.checkbox(b).check()
    await downloads.checkbox(c).check()
    await menu.openOn(downloads.row(b), { x: 300, y: 20 })
    expect(await menu.labels()).toEqual(['Pause (1)', 'Resume (1)', 'Cancel (2)', 'Remove (2)', 'Move to top (1)', 'Move to bottom (1)'])
    await expect(menu.menu).toHaveAttribute('aria-label', 'Actions for 2 selected downloads')
    await menu.choose('Cancel (2)')
    await downloads.expectRowIn('Cancelled', b)
    await downloads.expectRowIn('Cancelled', c)
    // The running one too: then it is a completed row whose file a browser cannot open.
    demo.faults.clear()
    valueOf(await bridge.call('downloads:cancel', [a]))
    valueOf(await bridge.call('downloads:retry', [a]))
    await expect(downloads.rowIn('Completed', a)).toBeVisible({ timeout: 30_000 })
    await menu.openOn(downloads.row(a), { x: 300, y: 20 })
    expect(await menu.labels()).toEqual(['Open', 'Show in folder', 'Remove'])
    await expect(menu.item('Open')).toHaveAttribute('aria-disabled', 'true')
    await expect(menu.item('Open')).toHaveAttribute('title', /desktop app/)
    await expect(menu.item('Remove')).toBeFocused()
    // A disabled item does nothing: the menu stays open.
    await menu.item('Open').click({ force: true })
    await expect(menu.menu).toBeVisible()
    await page.keyboard.press('Escape')
    expect(app.errors).toEqual([])
  })

  test('a menu stays with its row as the queue moves beneath it, and closes when its row leaves the list', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const menu = new ContextMenuPage(page)
    const ids = await queueInLine(own, bridge, demo, 4, 140)
    const [, b, c, d] = ids as [number, number, number, number]
    await downloads.open()
    await expect(downloads.rowIn('Queued', d)).toBeVisible()

    // From the keyboard on the last queued row; then the one above it leaves Queued (paused elsewhere): the row
    // moves up, and its menu with it, the focus still in the menu.
    await downloads.checkbox(d).focus()
    await page.keyboard.press('Shift+F10')
    await expect(menu.item('Pause')).toBeFocused()
    const offset = async (): Promise<number> => (await menu.menu.boundingBox())!.y - (await downloads.row(d).boundingBox())!.y
    const before = await offset()
    const rowBefore = (await downloads.row(d).boundingBox())!.y
    valueOf(await bridge.call('downloads:pause', [b, c]))
    await expect(downloads.rowIn('Paused', c)).toBeVisible()
    await expect.poll(async () => rowBefore - (await downloads.row(d).boundingBox())!.y).toBeGreaterThan(20)
    await expect.poll(offset).toBeCloseTo(before, 0)
    await expect(menu.item('Pause')).toBeFocused()

    // Its download taken off the list elsewhere: the menu for it goes, rather than stay over another row, and the
    // focus stays on the screen (its group went with it), not on the page.
    valueOf(await bridge.call('downloads:remove', [d]))
    await expect(downloads.row(d)).toHaveCount(0)
    await expect(menu.menu).toHaveCount(0)
    await expect(page.locator('#content :focus')).toHaveCount(1)
    expect(app.errors).toEqual([])
  })

  test('a selection\'s menu counts what is still selected while it is open', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const menu = new ContextMenuPage(page)
    const [, b, c, d] = (await queueInLine(own, bridge, demo, 4, 60)) as [number, number, number, number]
    await downloads.open()
    await expect(downloads.rowIn('Queued', d)).toBeVisible()
    for (const id of [b, c, d]) await downloads.checkbox(id).check()
    await menu.openOn(downloads.row(b), { x: 300, y: 20 })
    await expect(menu.item('Cancel (3)')).toBeVisible()
    // One of them removed elsewhere (another window): the open menu says 2, and acts on 2.
    valueOf(await bridge.call('downloads:remove', [d]))
    await expect(menu.item('Cancel (2)')).toBeVisible()
    await expect(menu.item('Pause (2)')).toBeVisible()
    await menu.choose('Pause (2)')
    await expect(downloads.rowIn('Paused', b)).toBeVisible()
    await expect(downloads.rowIn('Paused', c)).toBeVisible()
    expect(app.errors).toEqual([])
  })

  test('on artist rows: Open, Follow and Download all, by right click and by the keyboard', async ({ page, bridge, demo, app }) => {
    const artists = new ArtistsPage(page, bridge.url)
    const menu = new ContextMenuPage(page)
    const listed = new Set(valueOf(await bridge.call('downloads:list')).map((download) => download.uploadId))
    const { artist, tracks } = pickArtist(demo, (candidate, list) => list.length >= 1 && list.length <= 2 && list.every((track) => track.bytes < 1_500_000 && !listed.has(track.uploadId)) && /^[a-z]+$/i.test(candidate.username))
    await artists.open()
    await artists.search.fill(artist.username)
    const row = artists.row(artist.username)
    await expect(row).toBeVisible()

    await menu.openOn(row)
    expect(await menu.labels()).toEqual(['Open', 'Follow', 'Download all'])
    await menu.choose('Follow')
    await menu.openOn(row)
    await expect(menu.item('Unfollow')).toBeVisible()
    await menu.choose('Unfollow')
    await menu.openOn(row)
    await expect(menu.item('Follow')).toBeVisible()

    // Download all: every track of the artist queued, as the artist page's button does.
    await menu.choose('Download all')
    await expect.poll(async () => {
      const rows = valueOf(await bridge.call('downloads:list'))
      return tracks.every((track) => rows.some((download) => download.uploadId === track.uploadId))
    }).toBe(true)
    own.ids = valueOf(await bridge.call('downloads:list')).filter((download) => tracks.some((track) => track.uploadId === download.uploadId)).map((download) => download.id)

    // The keyboard: the list keeps the focus, the menu opens under the keyboard's row; Escape comes back to the list.
    await artists.list.focus()
    await expect(artists.selectedRow).toHaveAttribute('data-username', artist.username)
    await page.keyboard.press('ContextMenu')
    await expect(menu.item('Open')).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(artists.list).toBeFocused()
    await page.keyboard.press('Shift+F10')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`#/artists/${artist.username}$`))
    expect(app.errors).toEqual([])
  })

  test('from the keyboard on a row scrolled out of view: the row comes into view, its menu inside the window', async ({ page, bridge, demo, app }) => {
    const downloads = new DownloadsPage(page, bridge.url)
    const menu = new ContextMenuPage(page)
    const ids = await queueInLine(own, bridge, demo, 8, 180)
    const last = ids.at(-1)!
    await page.setViewportSize({ width: 800, height: 600 })
    await downloads.open()
    await expect(downloads.rowIn('Queued', last)).toBeVisible()

    // The focus on the last row's checkbox, then the screen scrolled back to the top: the row is below the window.
    await downloads.checkbox(last).focus()
    await downloads.scrollToTop()
    await expect(downloads.row(last)).not.toBeInViewport()
    await expect(downloads.checkbox(last)).toBeFocused()
    await page.keyboard.press('Shift+F10')
    await expect(menu.item('Pause')).toBeFocused()
    await menu.expectInsideWindow()
    await expect(downloads.row(last)).toBeInViewport()
    // Under (or over) the row it is for, not somewhere else in the window, even as the running row above it grows
    // a line of speed and time left.
    await expect.poll(async () => {
      const row = (await downloads.row(last).boundingBox())!
      const box = (await menu.menu.boundingBox())!
      return box.y >= row.y || box.y + box.height <= row.y + row.height
    }).toBe(true)
    await page.keyboard.press('Escape')
    await expect(downloads.checkbox(last)).toBeFocused()
    await page.setViewportSize({ width: 1280, height: 800 })
    expect(app.errors).toEqual([])
  })

  test('a right click on an artist row makes it the list\'s current row, as a left click does', async ({ page, bridge, app }) => {
    const artists = new ArtistsPage(page, bridge.url)
    const menu = new ContextMenuPage(page)
    await artists.open()
    await artists.settled()
    const [first, second, third] = await artists.drawnUsernames()
    // The keyboard on the second row.
    await artists.list.focus()
    await expect(artists.selectedRow).toHaveAttribute('data-username', first!)
    await page.keyboard.press('ArrowDown')
    await expect(artists.selectedRow).toHaveAttribute('data-username', second!)

    // A right click on the third: its menu, and it is the current row.
    await menu.openOn(artists.row(third!), { x: 200, y: 20 })
    const label = await menu.menu.getAttribute('aria-label')
    await expect(artists.selectedRow).toHaveAttribute('data-username', third!)
    await page.keyboard.press('Escape')
    await expect(menu.menu).toHaveCount(0)
    await expect(artists.list).toBeFocused()
    // The context-menu key now acts on that row too.
    await page.keyboard.press('ContextMenu')
    await expect(menu.menu).toHaveAttribute('aria-label', label!)
    await page.keyboard.press('Escape')
    await expect(artists.selectedRow).toHaveAttribute('data-username', third!)
    expect(app.errors).toEqual([])
  })

  test('a menu on an artist row closes when the list shows another artist in that row, and the list keeps the focus', async ({ page, bridge, app }) => {
    const follows = new FollowsPage(page, bridge.url)
    const { artists } = follows
    const menu = new ContextMenuPage(page)
    await artists.open()
    await artists.settled()
    const [first, second] = await artists.drawnUsernames()
    // Two artists followed (elsewhere: through the bridge), the list narrowed to them.
    for (const username of [first!, second!]) valueOf(await bridge.call('follows:follow', username))
    try {
      await expect(follows.chip('Following')).toHaveText('Following (2)')
      await follows.chip('Following').click()
      await expect.poll(() => artists.drawnUsernames()).toEqual([first, second])
      // The window has heard of the follows made elsewhere (its rows' toggles say so).
      await expect(follows.rowToggle(first!)).toHaveText('Following')
      await artists.list.focus()
      await expect(artists.selectedRow).toHaveAttribute('data-username', first!)
      await page.keyboard.press('ContextMenu')
      await expect(menu.item('Unfollow')).toBeVisible()
      // The first unfollowed elsewhere: the list's first row now shows the second artist. The menu was for the first
      // one: it goes, rather than stay open over another artist's row.
      valueOf(await bridge.call('follows:unfollow', first!))
      await expect.poll(() => artists.drawnUsernames()).toEqual([second])
      await expect(menu.menu).toHaveCount(0)
      await expect(artists.list).toBeFocused()
    } finally {
      for (const username of [first!, second!]) await bridge.call('follows:unfollow', username)
      await follows.chip('Following').click()
    }
    expect(app.errors).toEqual([])
  })

  test('on track rows: Download, then Play, Open and Show in folder, by right click and by the keyboard', async ({ page, bridge, demo, app }) => {
    const screen = new ArtistPage(page, bridge.url)
    const menu = new ContextMenuPage(page)
    const listed = new Set(valueOf(await bridge.call('downloads:list')).map((download) => download.uploadId))
    const { artist, tracks } = pickArtist(demo, (_artist, list) => list.length >= 2 && list.length <= 10 && list.some((track) => track.ext === 'wav' && track.bytes < 3_000_000) && list.every((track) => !listed.has(track.uploadId)))
    const wav = tracks.find((track) => track.ext === 'wav' && track.bytes < 3_000_000)!
    const other = tracks.find((track) => track !== wav)!
    await screen.open(artist.username)
    await expect(screen.track(wav.uploadId)).toBeVisible()

    // Not downloaded: Download, which queues it as the Download button does.
    await menu.openOn(screen.track(wav.uploadId), { x: 100, y: 10 })
    expect(await menu.labels()).toEqual(['Download'])
    await menu.choose('Download')
    await expect(screen.trackState(wav.uploadId)).toHaveAttribute('data-state', 'completed', { timeout: 30_000 })
    own.ids = valueOf(await bridge.call('downloads:list')).filter((download) => download.uploadId === wav.uploadId).map((download) => download.id)

    // Downloaded: Play, and Open and Show in folder, disabled in a browser with the reason.
    await menu.openOn(screen.track(wav.uploadId), { x: 100, y: 10 })
    expect(await menu.labels()).toEqual(['Play', 'Open', 'Show in folder'])
    await expect(menu.item('Show in folder')).toHaveAttribute('title', /desktop app/)
    await menu.choose('Play')
    await expect(screen.trackButton(wav.uploadId, 'Pause')).toBeVisible({ timeout: 15_000 })

    // The keyboard, on a focused row: Shift+F10, Escape back to the row.
    await screen.track(other.uploadId).focus()
    await page.keyboard.press('Shift+F10')
    await expect(menu.item('Download')).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(menu.menu).toHaveCount(0)
    await expect(screen.track(other.uploadId)).toBeFocused()
    await screen.track(wav.uploadId).focus()
    await page.keyboard.press('ContextMenu')
    await expect(menu.item('Pause')).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(screen.trackButton(wav.uploadId, 'Play')).toBeVisible()
    expect(app.errors).toEqual([])
  })
})
