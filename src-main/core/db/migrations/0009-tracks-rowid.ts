/**
 * Tracks as a rowid table. Keyed by upload id (WITHOUT ROWID), every track a
 * sync inserts landed at a random place in a clustered b-tree of wide rows;
 * with a rowid the rows are appended, and only the narrow index of upload ids
 * takes the random insert (a sync's ingest of tracks takes about 30% less CPU:
 * test/bench/sync.bench.ts). The upload id stays unique and is how tracks are found.
 *
 * Rebuilt as SQLite's generalized ALTER TABLE procedure says, in the
 * migration's own transaction. Foreign keys stay on throughout (the pragma
 * cannot change inside a transaction), which is safe here: no table refers to
 * tracks, so dropping the old table deletes nothing and breaks no reference,
 * and the copy checks each row's artist as it goes (better-sqlite3 turns
 * foreign keys on in every connection, so every cache's tracks have one). The indexes are made again (the
 * changed-run index spells out the upload id that the old table appended to
 * it, so What's new reads its order from the index as before); no trigger or
 * view refers to tracks. The rows are copied in the old table's own order (by
 * upload id: one pass, and the upload-id index filled in order, well over
 * twice as fast as by artist); a sync writes each artist's tracks together again.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE TABLE tracks_new (
      id INTEGER PRIMARY KEY,
      upload_id TEXT NOT NULL UNIQUE,
      artist_id INTEGER NOT NULL REFERENCES artists (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      item_id TEXT,
      title TEXT NOT NULL,
      subtype TEXT NOT NULL,
      created_at TEXT,
      bytes INTEGER,
      downloads INTEGER,
      hotlinks INTEGER,
      ext TEXT,
      hotlink_path TEXT,
      item_artist TEXT,
      first_seen_run INTEGER,
      changed_run INTEGER
    ) STRICT;
    INSERT INTO tracks_new (upload_id, artist_id, position, item_id, title, subtype, created_at, bytes, downloads, hotlinks, ext,
      hotlink_path, item_artist, first_seen_run, changed_run)
    SELECT upload_id, artist_id, position, item_id, title, subtype, created_at, bytes, downloads, hotlinks, ext,
      hotlink_path, item_artist, first_seen_run, changed_run
    FROM tracks;
    DROP TABLE tracks;
    ALTER TABLE tracks_new RENAME TO tracks;
    CREATE INDEX tracks_by_artist ON tracks (artist_id, position);
    CREATE INDEX tracks_by_changed_run ON tracks (changed_run, upload_id) WHERE changed_run IS NOT NULL;
  `
