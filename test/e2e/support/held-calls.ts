// The window's calls of one channel held back, as a core too busy to answer them at once
// (a machine shared with a sync and downloads): what a screen says while it waits.
import type { Page, Route } from '@playwright/test'

export interface HeldCalls {
  /** Calls held now. */
  readonly count: number
  /** Lets the held calls go on to the core, and the later ones too, until hold() again. */
  release(): Promise<void>
  /** Holds the calls from now on again. */
  hold(): void
}

/** Holds every call of channel the page makes over the web bridge (`/api/<channel>`) until released. */
export async function holdCalls(page: Page, channel: string): Promise<HeldCalls> {
  const held: Route[] = []
  let holding = true
  await page.route(`**/api/${channel}`, async (route) => {
    if (holding) held.push(route)
    else await route.continue()
  })
  return {
    get count() {
      return held.length
    },
    release: async () => {
      holding = false
      for (const route of held.splice(0)) await route.continue()
    },
    hold: () => {
      holding = true
    },
  }
}
