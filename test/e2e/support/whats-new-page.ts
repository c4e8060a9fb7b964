// Page object for the What's new screen.
import type { Locator, Page } from '@playwright/test'

export type WhatsNewGroup = 'New artists' | 'Changed artists' | 'New tracks' | 'Changed tracks'

export class WhatsNewPage {
  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: "What's new" })
  }

  /** "N artists and M tracks appeared or changed in …". */
  get summary(): Locator {
    return this.page.getByTestId('whats-new-summary')
  }

  get firstSync(): Locator {
    return this.page.getByText('Everything is new: this is the first sync.')
  }

  get firstSyncUnderWay(): Locator {
    return this.page.getByText('The first sync is under way')
  }

  get nothingNew(): Locator {
    return this.page.getByText('Nothing new', { exact: true })
  }

  /** One sync's section: 'The last sync' or 'The sync before'. */
  run(title: 'The last sync' | 'The sync before'): Locator {
    return this.page.getByRole('region', { name: title, exact: true })
  }

  /** A group of one sync (the last one unless said). */
  group(name: WhatsNewGroup, run: 'The last sync' | 'The sync before' = 'The last sync'): Locator {
    return this.run(run).getByRole('region', { name, exact: true })
  }

  /** The lines of facts that wrap: a sync's date and age, an artist's username and place, a track's kind and format. */
  get factLines(): Locator {
    return this.page.locator('.whats-new-run .when, .whats-new-artists .detail, .whats-new-tracks .detail')
  }

  /** The state of a first run that cannot reach the service. */
  get unreachable(): Locator {
    return this.page.getByRole('main').getByRole('status').filter({ hasText: 'The catalogue service cannot be reached' })
  }

  /** The link to an artist inside a group. */
  artistLink(group: Locator, name: string): Locator {
    return group.getByRole('link', { name: new RegExp(escape(name)) })
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
