/**
 * What's new: the sync run in which each artist and track first appeared and
 * last changed, and which runs filled an empty cache (everything they brought
 * is the starting point, not news). Rows from before are NULL: known, not new.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    ALTER TABLE artists ADD COLUMN first_seen_run INTEGER;
    ALTER TABLE artists ADD COLUMN changed_run INTEGER;
    ALTER TABLE tracks ADD COLUMN first_seen_run INTEGER;
    ALTER TABLE tracks ADD COLUMN changed_run INTEGER;
    ALTER TABLE sync_runs ADD COLUMN initial INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX artists_by_changed_run ON artists (changed_run) WHERE changed_run IS NOT NULL;
    CREATE INDEX tracks_by_changed_run ON tracks (changed_run) WHERE changed_run IS NOT NULL;
  `
