/**
 * Downloads: `cancelled` spelt as everywhere else in the app, and why a download
 * is paused as a column of its own (the user, or a full disk) instead of a
 * prefix in the error text. SQLite cannot change a CHECK constraint in place,
 * so the table is rebuilt; ids, bytes and times are kept.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE TABLE downloads_new (
      id INTEGER PRIMARY KEY,
      upload_id TEXT NOT NULL,
      artist_username TEXT NOT NULL,
      title TEXT NOT NULL,
      url TEXT NOT NULL,
      -- Absolute path of the final file; the partial file is this plus ".part".
      target_path TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('queued', 'downloading', 'paused', 'completed', 'failed', 'cancelled')),
      -- Set exactly while the state is paused: 'user', or 'disk_full' (resuming the queue restarts these).
      pause_reason TEXT CHECK (pause_reason IN ('user', 'disk_full')),
      bytes_done INTEGER NOT NULL DEFAULT 0,
      bytes_total INTEGER NOT NULL,
      -- The ETag (or else Last-Modified) the partial file was fetched under.
      validator TEXT,
      sha256 TEXT,
      error TEXT,
      created_at INTEGER NOT NULL,
      started_at INTEGER,
      finished_at INTEGER,
      CHECK ((state = 'paused') = (pause_reason IS NOT NULL))
    ) STRICT;
    INSERT INTO downloads_new (id, upload_id, artist_username, title, url, target_path, state, pause_reason, bytes_done,
      bytes_total, validator, sha256, error, created_at, started_at, finished_at)
    SELECT id, upload_id, artist_username, title, url, target_path,
      CASE state WHEN 'canceled' THEN 'cancelled' ELSE state END,
      CASE WHEN state != 'paused' THEN NULL WHEN error LIKE 'paused: %' THEN 'disk_full' ELSE 'user' END,
      bytes_done, bytes_total, validator, sha256,
      CASE WHEN error LIKE 'paused: %' THEN substr(error, 9) ELSE error END,
      created_at, started_at, finished_at
    FROM downloads;
    DROP TABLE downloads;
    ALTER TABLE downloads_new RENAME TO downloads;
    CREATE INDEX downloads_by_state ON downloads (state, id);
    CREATE INDEX downloads_by_upload ON downloads (upload_id);
  `
