// Page object for the What's new screen.
import type { Locator, Page } from '@playwright/test'

export type WhatsNewGroup = 'Following' | 'New artists' | 'Changed artists' | 'New tracks' | 'Changed tracks' | 'Tracks'
/** A sync's section: 'The last sync', 'The sync before', '3 syncs ago'…; after the first sync alone, 'Newest uploads'. */
export type WhatsNewRunTitle = 'The last sync' | 'The sync before' | `${number} syncs ago` | 'Newest uploads'

export class WhatsNewPage {
  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: "What's new" })
  }

  /** "N artists and M tracks appeared or changed in …". */
  get summary(): Locator {
    return this.page.getByTestId('whats-new-summary')
  }

  /** After the first sync alone: its newest uploads. */
  get newestUploads(): Locator {
    return this.run('Newest uploads')
  }

  get firstSyncUnderWay(): Locator {
    return this.page.getByText('The first sync is under way')
  }

  get nothingNew(): Locator {
    return this.page.getByText('Nothing new', { exact: true })
  }

  /** One sync's section. */
  run(title: WhatsNewRunTitle): Locator {
    return this.page.getByRole('region', { name: title, exact: true })
  }

  /** The sections' titles, in the order shown. */
  async runTitles(): Promise<string[]> {
    return this.page.getByTestId('whats-new-run').evaluateAll((runs) => runs.map((run) => run.getAttribute('aria-label') ?? ''))
  }

  /** The groups' titles of one sync, in the order shown. */
  async groupTitles(run: WhatsNewRunTitle = 'The last sync'): Promise<string[]> {
    return this.run(run).locator('.group').evaluateAll((groups) => groups.map((group) => group.getAttribute('aria-label') ?? ''))
  }

  /** A group of one sync (the last one unless said). */
  group(name: WhatsNewGroup, run: WhatsNewRunTitle = 'The last sync'): Locator {
    return this.run(run).getByRole('region', { name, exact: true })
  }

  /** The rows of new and changed tracks, in the order shown (within `scope`, else the whole screen). */
  trackRows(scope: Locator | Page = this.page): Locator {
    return scope.getByTestId('whats-new-track')
  }

  /** A track's row, by its title. */
  track(title: string, scope: Locator | Page = this.page): Locator {
    return this.trackRows(scope).filter({ has: this.page.getByTestId('whats-new-track-title').getByText(title, { exact: true }) })
  }

  /** A track's Play button (enabled once it is downloaded). */
  play(title: string): Locator {
    return this.track(title).getByRole('button', { name: `Play ${title}`, exact: true })
  }

  /** A track's Download button (gone once it is queued). */
  download(title: string): Locator {
    return this.track(title).getByRole('button', { name: `Download ${title}`, exact: true })
  }

  /** What a track's download is now: none, queued, downloading, paused, failed or completed. */
  downloadState(title: string): Locator {
    return this.track(title).locator('[data-state]')
  }

  get downloadAllNew(): Locator {
    return this.page.getByRole('button', { name: 'Download all new' })
  }

  /** The estimate beside "Download all new". */
  get downloadAllEstimate(): Locator {
    return this.page.getByTestId('download-all-new-estimate')
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
