// Page object for the tiers screen: the level cards, the artist picker and the bars.
import type { Locator, Page } from '@playwright/test'

/** What a bar (a meter) says: its figure, its limit, and the figure shown to screen readers. */
export interface MeterReading {
  value: number
  max: number
  now: number
  text: string
}

/** The tiers screen, as a user sees it. */
export class TiersPage {
  constructor(
    readonly page: Page,
    /** The address that opens the app (token included). */
    readonly url: string,
  ) {}

  /** Opens the app on the tiers screen, for an artist if one is named (as the artist screen links here). */
  async open(artist?: string): Promise<void> {
    await this.page.goto(`${this.url}#/tiers${artist === undefined ? '' : `?artist=${encodeURIComponent(artist)}`}`)
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Tiers' })
  }

  /** One level's card (an article named by the level). */
  level(name: string): Locator {
    return this.page.getByRole('article', { name, exact: true })
  }

  get levels(): Locator {
    return this.page.getByRole('article')
  }

  price(level: string): Locator {
    return this.level(level).getByTestId('price')
  }

  maxFileSize(level: string): Locator {
    return this.level(level).getByTestId('max-file-size')
  }

  bandwidth(level: string): Locator {
    return this.level(level).getByTestId('bandwidth')
  }

  storage(level: string): Locator {
    return this.level(level).getByTestId('storage')
  }

  /** "Fits" or "Does not fit". */
  verdict(level: string): Locator {
    return this.level(level).getByTestId('verdict')
  }

  /** A bar of a level's card: "Largest upload", "All uploads" or "Downloaded this month". */
  meter(level: string, name: 'Largest upload' | 'All uploads' | 'Downloaded this month'): Locator {
    return this.level(level).getByRole('meter', { name })
  }

  /** A bar's figures, as its attributes carry them. */
  async readMeter(meter: Locator): Promise<MeterReading> {
    const [value, max, now, text] = await Promise.all([
      meter.getAttribute('data-value'),
      meter.getAttribute('aria-valuemax'),
      meter.getAttribute('aria-valuenow'),
      meter.getAttribute('aria-valuetext'),
    ])
    return { value: Number(value), max: Number(max), now: Number(now), text: text ?? '' }
  }

  /** The search box that picks an artist. */
  get artistSearch(): Locator {
    return this.page.getByRole('combobox', { name: 'Check an artist' })
  }

  /** The artists the search box offers. */
  get artistOptions(): Locator {
    return this.page.getByRole('listbox', { name: 'Matching artists' }).getByRole('option')
  }

  /** The chosen artist's panel: name, figures, cheapest level. */
  get chosenArtist(): Locator {
    return this.page.getByTestId('tier-artist')
  }

  /** "Cheapest level that fits: Silver, $8 per month", or that none fits. */
  get cheapest(): Locator {
    return this.page.getByTestId('cheapest')
  }

  /** "Downloaded in November 2026: 12.3 MB" */
  get month(): Locator {
    return this.page.getByTestId('tiers-month')
  }

  get emptyState(): Locator {
    return this.page.getByRole('status').filter({ hasText: 'No access levels cached yet' })
  }
}
