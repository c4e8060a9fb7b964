// Page object for the player bar at the bottom of every screen.
import type { Locator, Page } from '@playwright/test'

export class PlayerBar {
  constructor(readonly page: Page) {}

  get region(): Locator {
    return this.page.getByRole('region', { name: 'Player' })
  }

  get play(): Locator {
    return this.region.getByRole('button', { name: 'Play', exact: true })
  }

  get pause(): Locator {
    return this.region.getByRole('button', { name: 'Pause', exact: true })
  }

  get next(): Locator {
    return this.region.getByRole('button', { name: 'Next track' })
  }

  get previous(): Locator {
    return this.region.getByRole('button', { name: 'Previous track' })
  }

  /** A toggle: aria-pressed says whether it is on. */
  get shuffle(): Locator {
    return this.region.getByRole('button', { name: 'Shuffle' })
  }

  /** Off, all, one in turn: aria-pressed when on, data-repeat says which (and the title, in words). */
  get repeat(): Locator {
    return this.region.getByRole('button', { name: 'Repeat' })
  }

  /** Opens and closes the queue panel (aria-expanded). */
  get queueButton(): Locator {
    return this.region.getByRole('button', { name: 'Queue', exact: true })
  }

  get queue(): Locator {
    return this.page.getByRole('region', { name: /^Queue/ })
  }

  /** The queue's entries, in play order. */
  get queueEntries(): Locator {
    return this.queue.getByRole('listitem')
  }

  /** The entry of the track playing (its button says so with aria-current). */
  get queueCurrent(): Locator {
    return this.queue.locator('button[aria-current="true"]')
  }

  /** The button of the queue's entry at `index` (from 0), which plays it. */
  queueEntry(index: number): Locator {
    return this.queueEntries.nth(index).getByRole('button').first()
  }

  /** The queue's entries as read: each title, in play order. */
  async queueTitles(): Promise<string[]> {
    return this.queueEntries.locator('.title').evaluateAll((titles) => titles.map((title) => (title.lastChild?.textContent ?? '').trim()))
  }

  get close(): Locator {
    return this.region.getByRole('button', { name: 'Close the player' })
  }

  get seek(): Locator {
    return this.region.getByRole('slider', { name: 'Seek' })
  }

  get volume(): Locator {
    return this.region.getByRole('slider', { name: 'Volume' })
  }

  get mute(): Locator {
    return this.region.getByRole('button', { name: 'Mute' })
  }

  get title(): Locator {
    return this.region.getByTestId('player-title')
  }

  get artist(): Locator {
    return this.region.getByTestId('player-artist')
  }

  /** The element the player plays through (present whether or not the bar shows). */
  get audio(): Locator {
    return this.page.locator('.player-host audio')
  }

  /** Where the slider stands, in seconds. */
  async position(): Promise<number> {
    return Number(await this.seek.inputValue())
  }

  /** Where the bar and the page end: the bar's right edge, the window's width, and how wide the page scrolls. */
  async extent(): Promise<{ barRight: number; closeRight: number; innerWidth: number; scrollWidth: number }> {
    return this.page.evaluate(() => ({
      barRight: document.querySelector('[data-testid="player"]')!.getBoundingClientRect().right,
      closeRight: document.querySelector('[data-testid="player"] [aria-label="Close the player"]')!.getBoundingClientRect().right,
      innerWidth: window.innerWidth,
      scrollWidth: document.scrollingElement!.scrollWidth,
    }))
  }

  /**
   * Renames the tracks of the queue as the app holds them (through the app's Pinia, as the shell's
   * showMessages does): how the bar and the queue draw names the demo does not have (long, right to left).
   */
  async rename(title: string, artistName: string): Promise<void> {
    await this.page.evaluate(
      ({ title, artistName }) => {
        type Track = { title: string; artistName: string }
        type Player = { queue: Track[]; index: number }
        const app = (document.querySelector('#app') as unknown as { __vue_app__: { config: { globalProperties: { $pinia: { _s: Map<string, Player> } } } } }).__vue_app__
        const player = app.config.globalProperties.$pinia._s.get('player')!
        player.queue = player.queue.map((track, at) => ({ ...track, artistName, ...(at === player.index ? { title } : {}) }))
      },
      { title, artistName },
    )
  }

  /**
   * Slows every track the player loads from now on (the demo's WAV tones last about a second,
   * too short to pause or seek by hand): a rate of 0.1 makes that ten.
   */
  async slowDown(rate = 0.1): Promise<void> {
    await this.audio.evaluate((element: HTMLAudioElement, value) => {
      element.defaultPlaybackRate = value
      element.playbackRate = value
    }, rate)
  }
}
