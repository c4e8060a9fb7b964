// Page object for the Artists screen, and the same lists as the catalogue service answers them.
import { expect, type Locator, type Page } from '@playwright/test'

/** Pixels between two rows of the list (its rows have one fixed height). */
const ROW_HEIGHT = 56

type KindLabel = 'All' | 'Musicians' | 'Podcasts'

/** The Artists screen, as a user sees it. */
export class ArtistsPage {
  constructor(
    readonly page: Page,
    /** The address that opens the app (`npm run web` prints it). */
    readonly url: string,
  ) {}

  /** Opens the app on the Artists screen. */
  async open(): Promise<void> {
    await this.page.goto(`${this.url}#/artists`)
    await expect(this.heading).toBeVisible()
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Artists' })
  }

  get search(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search artists' })
  }

  /** "1,234 artists" beside the heading. */
  get count(): Locator {
    return this.page.getByTestId('artist-count')
  }

  get list(): Locator {
    return this.page.getByRole('listbox', { name: 'Artists' })
  }

  get rows(): Locator {
    return this.list.getByRole('option')
  }

  /** The state of a first run that cannot reach the service. */
  get unreachable(): Locator {
    return this.page.getByRole('main').getByRole('status').filter({ hasText: 'The catalogue service cannot be reached' })
  }

  get loading(): Locator {
    return this.page.getByTestId('artists-loading')
  }

  /** The row of an artist, by username, when it is drawn. */
  row(username: string): Locator {
    return this.list.locator(`[role="option"][data-username="${username.replace(/["\\]/g, '\\$&')}"]`)
  }

  get selectedRow(): Locator {
    return this.list.locator('[role="option"][aria-selected="true"]')
  }

  /** A choice of the musicians/podcasts filter, for reading its state. */
  kind(label: KindLabel): Locator {
    return this.page.getByRole('radiogroup', { name: 'Show' }).getByRole('radio', { name: label })
  }

  /** Chooses musicians, podcasts or all, as a user does: by clicking the choice's label. */
  async showKind(label: KindLabel): Promise<void> {
    await this.page.getByRole('radiogroup', { name: 'Show' }).getByText(label, { exact: true }).click()
    await expect(this.kind(label)).toBeChecked()
  }

  get sort(): Locator {
    return this.page.getByRole('combobox', { name: 'Sort' })
  }

  get reverse(): Locator {
    return this.page.getByRole('button', { name: 'Reverse' })
  }

  get includeBlank(): Locator {
    return this.page.getByRole('checkbox', { name: 'Include artists without tracks' })
  }

  /** The note that says sort and reverse wait while searching. */
  get relevanceNote(): Locator {
    return this.page.getByText('Sorted by relevance while searching')
  }

  /** Waits until the count reads `total` and the rows on screen are those of the latest filters. */
  async expectTotal(total: number, timeout?: number): Promise<void> {
    await expect(this.count).toHaveText(`${total.toLocaleString('en')} ${total === 1 ? 'artist' : 'artists'}`, { timeout })
    if (total > 0) await this.settled()
  }

  /** Waits until the list shows the rows of the latest filters, the first of them drawn. */
  async settled(): Promise<void> {
    await expect(this.list).toHaveAttribute('aria-busy', 'false')
    await expect(this.rows.first()).toHaveAttribute('data-username', /./)
  }

  /** Usernames of the rows drawn now, in list order. */
  async drawnUsernames(): Promise<string[]> {
    const rows = await this.rows.evaluateAll((options) =>
      options.map((option) => ({ position: Number(option.getAttribute('aria-posinset')), username: option.getAttribute('data-username') })),
    )
    return rows.sort((a, b) => a.position - b.position).map((row) => row.username ?? '')
  }

  /**
   * Every username of the list in its order, read off the screen: the list is scrolled a
   * screen at a time from the top, and the rows are read once those in view show their artist.
   */
  async allUsernames(total: number): Promise<string[]> {
    const seen = new Map<number, string>()
    const list = this.list
    const { clientHeight } = await list.evaluate((element) => ({ clientHeight: element.clientHeight }))
    for (let top = 0; ; top += clientHeight - ROW_HEIGHT) {
      const scrolled = await list.evaluate((element, to) => {
        element.scrollTop = to
        return element.scrollTop
      }, top)
      // The rows in view, from the first one the top cuts to the last one the bottom cuts.
      const first = Math.floor(scrolled / ROW_HEIGHT) + 1
      const last = Math.min(total, Math.floor((scrolled + clientHeight - 1) / ROW_HEIGHT) + 1)
      let drawn: (readonly [number, string | null])[] = []
      await expect
        .poll(async () => {
          drawn = await this.rows.evaluateAll((options) =>
            options.map((option) => [Number(option.getAttribute('aria-posinset')), option.getAttribute('data-username')] as const),
          )
          const shown = new Map(drawn)
          for (let position = first; position <= last; position++) if (!shown.get(position)) return `row ${position} not drawn yet`
          return 'drawn'
        })
        .toBe('drawn')
      for (const [position, username] of drawn) if (username !== null) seen.set(position, username)
      if (last >= total) break
    }
    expect(seen.size, 'rows read off the list').toBe(total)
    return [...seen.entries()].sort(([a], [b]) => a - b).map(([, username]) => username)
  }

  /** Usernames of the rows wholly in view now (inside the list's box), in list order. */
  async usernamesInView(): Promise<string[]> {
    return this.list.evaluate((list) => {
      const box = list.getBoundingClientRect()
      return [...list.querySelectorAll('[role="option"]')]
        .filter((row) => {
          const rect = row.getBoundingClientRect()
          return rect.top >= box.top - 0.5 && rect.bottom <= box.bottom + 0.5
        })
        .sort((a, b) => Number(a.getAttribute('aria-posinset')) - Number(b.getAttribute('aria-posinset')))
        .map((row) => row.getAttribute('data-username') ?? '')
    })
  }

  /** How far the list is scrolled, in pixels. */
  scrollTop(): Promise<number> {
    return this.list.evaluate((element) => element.scrollTop)
  }
}

/** A query of the service's artist list, as its interface names the parameters. */
export interface ServiceListQuery {
  q?: string
  sort?: 'trending' | 'top' | 'recently_created' | 'recently_updated'
  sort_r?: 0 | 1
  is_podcaster?: 0 | 1
  include_blank?: 0 | 1
}

/** Every username the service lists for a query, page after page of 50, in its order. */
export async function serviceUsernames(baseUrl: string, query: ServiceListQuery): Promise<string[]> {
  const usernames: string[] = []
  for (let page = 1; ; page++) {
    const params = new URLSearchParams({ page: String(page), per_page: '50' })
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value))
    const response = await fetch(`${baseUrl}/api/v1/artists?${params}`)
    if (!response.ok) throw new Error(`the service answered ${response.status} to ${params}`)
    const body = (await response.json()) as { pages: number; artists: { artist: { username: string } }[] }
    usernames.push(...body.artists.map(({ artist }) => artist.username))
    if (page >= body.pages) return usernames
  }
}
