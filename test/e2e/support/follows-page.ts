// Following, as the artists list and the artist page show it: the rows' Follow toggle and
// marker, the Following and Downloaded chips, the artist page's button and switch.
import type { Locator, Page } from '@playwright/test'
import { ArtistsPage } from './artists-page'

export class FollowsPage {
  readonly artists: ArtistsPage

  constructor(
    readonly page: Page,
    url: string,
  ) {
    this.artists = new ArtistsPage(page, url)
  }

  /** The Follow / Following pill of an artist's row (for the pointer; the keyboard uses F). */
  rowToggle(username: string): Locator {
    return this.artists.row(username).locator('[data-follow-toggle]')
  }

  /** A chip of the toolbar: "Following (N)" or "Downloaded (N)". */
  chip(name: 'Following' | 'Downloaded'): Locator {
    return this.page.getByRole('group', { name: 'Narrow to' }).getByRole('button', { name: new RegExp(`^${name}\\b`) })
  }

  /** The artist page's button: "Follow NAME" or "Unfollow NAME". */
  pageButton(action: 'Follow' | 'Unfollow', title: string): Locator {
    return this.page.getByRole('button', { name: `${action} ${title}`, exact: true })
  }

  get autoDownload(): Locator {
    return this.page.getByRole('switch', { name: 'Auto-download new tracks' })
  }

  /** The artist page's marker of a followed artist. */
  get following(): Locator {
    return this.page.getByTestId('artist-following')
  }

  get followArea(): Locator {
    return this.page.getByTestId('artist-follow')
  }
}
