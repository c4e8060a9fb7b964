/**
 * The names the screens show for an artist and a track: the one place that
 * decides what a blank name reads as, so the artist page, the player and the
 * Downloads screen never disagree (and no button is left "Open " with no name).
 */

/** An artist as titled: the display name, or the username when the catalogue gives none. */
export function artistTitle(artist: { name?: string | null | undefined; username: string }): string {
  const name = artist.name?.trim() ?? ''
  return name === '' ? artist.username : name
}

/** A track's title as shown: the catalogue's, or "Untitled" when it is blank. */
export function trackTitle(title: string | null | undefined): string {
  const trimmed = title?.trim() ?? ''
  return trimmed === '' ? 'Untitled' : trimmed
}
