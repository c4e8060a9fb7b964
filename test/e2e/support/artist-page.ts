// Page object for the artist screen (`#/artists/<username>`): selectors live here, specs read as steps.
import { expect, type Locator, type Page } from '@playwright/test'
import { ShellPage } from './shell-page'

/** The artist screen of the app, as a user sees it. */
export class ArtistPage {
  readonly shell: ShellPage

  constructor(
    readonly page: Page,
    /** The address that opens the app (token included), without a hash. */
    baseUrl: string,
  ) {
    this.shell = new ShellPage(page, baseUrl)
  }

  /** Opens an artist by address and waits until the screen says what it found. */
  async open(username: string): Promise<void> {
    await this.shell.open(`artists/${encodeURIComponent(username)}`)
    await expect(this.name.or(this.notFound)).toBeVisible()
  }

  /** Opens an artist and waits until the background refresh from the service is over. */
  async openAndRefresh(username: string): Promise<void> {
    await this.open(username)
    await expect(this.checking).toBeHidden({ timeout: 15_000 })
  }

  get view(): Locator {
    return this.page.locator('section.artist-view')
  }

  /** The full-size avatar over the thumbnail, once it is cached and loaded. */
  get fullAvatar(): Locator {
    return this.view.locator('.portrait img.full.loaded')
  }

  get backLink(): Locator {
    return this.page.getByRole('navigation', { name: 'Artist' }).getByRole('link', { name: 'Artists' })
  }

  /** "Checking for updates…" while the artist is refreshed in the background ("Fetching the tracks…" on a first fetch). */
  get checking(): Locator {
    return this.page.getByRole('status').filter({ hasText: /Checking for updates|Fetching the tracks/ })
  }

  /** "Showing 3 of 58 tracks: …", of an artist whose tracks the list results carried only some of. */
  get partialTracks(): Locator {
    return this.page.getByTestId('partial-tracks')
  }

  get name(): Locator {
    return this.page.getByRole('heading', { level: 1 })
  }

  get username(): Locator {
    return this.page.getByTestId('artist-username')
  }

  get location(): Locator {
    return this.page.getByTestId('artist-location')
  }

  get podcastBadge(): Locator {
    return this.page.getByTestId('podcast-badge')
  }

  get bio(): Locator {
    return this.page.getByTestId('artist-bio')
  }

  get links(): Locator {
    return this.page.getByRole('list', { name: 'Links' })
  }

  /** A link by its kind: 'website', 'facebook' or 'twitter'. */
  link(kind: 'website' | 'facebook' | 'twitter'): Locator {
    return this.links.locator(`a[data-kind="${kind}"]`)
  }

  get goneBanner(): Locator {
    return this.page.getByTestId('artist-gone')
  }

  get notFound(): Locator {
    return this.page.getByRole('status').filter({ hasText: 'No artist named' })
  }

  get tracks(): Locator {
    return this.page.getByRole('list', { name: /^Tracks/ })
  }

  /** The rows drawn now: those in view and a few more (the list draws no others). */
  get rows(): Locator {
    return this.tracks.locator(':scope > li')
  }

  /** The row the focus is on, or in. */
  get focusedRow(): Locator {
    return this.tracks.locator(':scope > li:focus-within')
  }

  /** One track's row, by its upload id. */
  track(uploadId: string): Locator {
    return this.tracks.locator(`li[data-upload-id="${uploadId}"]`)
  }

  /** A track's facts, one item each: subtype, format, size, date, downloads, hotlinks. */
  trackFacts(uploadId: string): Locator {
    return this.track(uploadId).locator('ul')
  }

  trackTitle(uploadId: string): Locator {
    return this.track(uploadId).getByTestId('track-title')
  }

  /** One fact of a track: subtype, format, size, date, downloads or hotlinks. */
  trackFact(uploadId: string, fact: 'subtype' | 'format' | 'size' | 'date' | 'downloads' | 'hotlinks'): Locator {
    return this.track(uploadId).locator(`[data-fact="${fact}"]`)
  }

  /** A track's button by what it does: Download, Pause, Resume, Cancel, Retry, Play, Open, Show … in folder. */
  trackButton(uploadId: string, action: 'Download' | 'Pause' | 'Resume' | 'Cancel' | 'Retry' | 'Play' | 'Open' | 'Show'): Locator {
    return this.track(uploadId).getByRole('button', { name: new RegExp(`^${action} `) })
  }

  trackProgress(uploadId: string): Locator {
    return this.track(uploadId).getByRole('progressbar')
  }

  /** Where the track's download stands, as its row draws it (none, queued, downloading, paused, completed…). */
  trackState(uploadId: string): Locator {
    return this.track(uploadId).locator('[data-state]')
  }

  get downloadAll(): Locator {
    return this.page.getByRole('button', { name: 'Download all' })
  }

  /** The size and free-space check beside "Download all". */
  get downloadAllEstimate(): Locator {
    return this.page.getByTestId('download-all-estimate')
  }

  /** The link to Tiers under it: which tier's limits the artist's uploads fit. */
  get tierLink(): Locator {
    return this.page.getByTestId('download-all-tier')
  }
}
