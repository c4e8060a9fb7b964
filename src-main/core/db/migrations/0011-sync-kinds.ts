/**
 * Two kinds of sync run. A full refresh reads every list in every sort order (so the offline
 * sorts stay exact) and is resumed where it stopped; a quick check reads the recently updated
 * list only until it meets what the cache already holds, fetches what changed, and is never
 * resumed (a new check looks again from the top).
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    ALTER TABLE sync_runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'full';
`
