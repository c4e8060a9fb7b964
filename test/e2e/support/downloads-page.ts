// Page object for the downloads screen: its groups, rows, selection and figures.
import { expect, type Locator, type Page } from '@playwright/test'

/** The groups of the screen, by heading. */
export type DownloadsGroupName = 'Downloading' | 'Queued' | 'Paused' | 'Interrupted' | 'Failed' | 'Completed' | 'Cancelled'

/** The downloads screen, as a user sees it. */
export class DownloadsPage {
  constructor(
    readonly page: Page,
    /** The address that opens the app (token included). */
    readonly url: string,
  ) {}

  /** Opens the app on the downloads screen. */
  async open(): Promise<void> {
    await this.page.goto(`${this.url}#/downloads`)
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Downloads' })
  }

  /** One group of the queue (a region named by its heading). */
  group(name: DownloadsGroupName): Locator {
    return this.page.getByRole('region', { name, exact: true })
  }

  /** A download's row, wherever it is (rows are told apart by download id). */
  row(id: number): Locator {
    return this.page.locator(`li[data-download-id="${id}"]`)
  }

  /**
   * Scrolls the screen until a download's row is drawn: the list draws only the rows in view
   * (and a few around them), so a row far down the queue is not in the page until the screen reaches it.
   */
  async scrollToRow(id: number): Promise<void> {
    // Half a screen at a time, towards the row: up while every row drawn has a higher id, else down
    // (the downloads a test queues have ids in their queue order). Completed rows are listed newest
    // first, not by id: when the guess runs into an end without the row, one sweep from the top down.
    const step = (guess: boolean): Promise<boolean> =>
      this.page.locator('main#content').evaluate(
        (element, { wanted, guess }) => {
          const drawn = [...element.querySelectorAll('li[data-download-id]')].map((row) => Number(row.getAttribute('data-download-id')))
          const up = guess && drawn.length > 0 && drawn.every((shown) => shown > wanted)
          const before = element.scrollTop
          element.scrollBy(0, ((up ? -1 : 1) * element.clientHeight) / 2)
          return element.scrollTop !== before
        },
        { wanted: id, guess },
      )
    for (let steps = 0; steps < 400 && (await this.row(id).count()) === 0; steps++) {
      if (!(await step(true))) break
      await this.page.waitForTimeout(50)
    }
    if ((await this.row(id).count()) > 0) return
    await this.page.locator('main#content').evaluate((element) => element.scrollTo(0, 0))
    for (let steps = 0; steps < 400 && (await this.row(id).count()) === 0; steps++) {
      if (!(await step(false))) break
      await this.page.waitForTimeout(50)
    }
  }

  /**
   * Waits for a download's row to show in a group, scrolled to: the list draws only the rows in view,
   * and a group low on the screen (Completed, after rows other tests left) may hold the row below it.
   */
  async expectRowIn(group: DownloadsGroupName, id: number, timeout = 5_000): Promise<void> {
    await expect
      .poll(
        async () => {
          if ((await this.rowIn(group, id).count()) > 0) return true
          await this.page.locator('main#content').evaluate((element) => element.scrollTo(0, 0))
          await this.scrollToRow(id)
          return (await this.rowIn(group, id).count()) > 0
        },
        { timeout },
      )
      .toBe(true)
    // The list may draw the row again meanwhile (an event came): a scroll onto a row just replaced is tried again.
    await expect(async () => this.rowIn(group, id).scrollIntoViewIfNeeded({ timeout: 1_000 })).toPass({ timeout })
    await expect(this.rowIn(group, id)).toBeVisible()
  }

  /** A download's row inside one group. */
  rowIn(group: DownloadsGroupName, id: number): Locator {
    return this.group(group).locator(`li[data-download-id="${id}"]`)
  }

  /** A row's button, by its visible label ("Pause", "Show in folder"...). */
  action(id: number, label: string): Locator {
    return this.row(id).getByRole('group', { name: /^Actions for / }).getByRole('button').filter({ hasText: new RegExp(`^\\s*${label}\\s*$`) })
  }

  /** A row's selection checkbox. */
  checkbox(id: number): Locator {
    return this.row(id).getByRole('checkbox')
  }

  /** A group's "select all" checkbox. */
  selectAll(group: DownloadsGroupName): Locator {
    return this.group(group).getByRole('checkbox', { name: `Select all in ${group}` })
  }

  /** The bar of actions for the selection. */
  get selectionBar(): Locator {
    return this.page.getByRole('group', { name: 'Selected downloads' })
  }

  /** A button of the selection bar, by its label ("Pause", "Resume"...). */
  selectionAction(label: string): Locator {
    return this.selectionBar.getByRole('button', { name: new RegExp(`^${label} [\\d,]+ selected download`) })
  }

  get selectionCount(): Locator {
    return this.page.getByTestId('selection-count')
  }

  /** "3 files to go · 2 of 5 files done · 1.2 MB of 4.5 MB · 26%": the whole batch since the queue was idle. */
  get overallProgress(): Locator {
    return this.page.getByTestId('overall-progress')
  }

  /** The speed of every running download together, and the time left at it. */
  get overallSpeed(): Locator {
    return this.page.getByTestId('overall-speed')
  }

  get overallTimeLeft(): Locator {
    return this.page.getByTestId('overall-time-left')
  }

  /** "Pause all" and "Resume all": the whole queue, whatever is selected. */
  get pauseAll(): Locator {
    return this.page.getByRole('button', { name: 'Pause all', exact: true })
  }

  get resumeAll(): Locator {
    return this.page.getByRole('button', { name: 'Resume all', exact: true })
  }

  /** The line under the heading that says what Cancel and Remove do. */
  get actionsHelp(): Locator {
    return this.page.getByTestId('actions-help')
  }

  /** A row's link to its artist. */
  artistLink(id: number): Locator {
    return this.row(id).getByRole('link')
  }

  /** How far the screen is scrolled (the window's one scroll container, main#content). */
  async scrollTop(): Promise<number> {
    return this.page.locator('main#content').evaluate((element) => element.scrollTop)
  }

  async scrollToTop(): Promise<void> {
    await this.page.locator('main#content').evaluate((element) => element.scrollTo(0, 0))
  }

  /** "12.3 MB downloaded" this month. */
  get monthBytes(): Locator {
    return this.page.getByTestId('month-bytes')
  }

  /** The messages of the app (errors are alerts). */
  get alerts(): Locator {
    return this.page.getByRole('region', { name: 'Messages' }).getByRole('alert')
  }

  /** The app's quiet notes ("Cancelled 2 of 3 downloads"). */
  get notes(): Locator {
    return this.page.getByRole('region', { name: 'Messages' }).getByRole('status')
  }

  get emptyState(): Locator {
    return this.page.getByRole('status').filter({ hasText: 'No downloads yet' })
  }
}
