/**
 * The download queue: one row per requested upload, kept across restarts.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE TABLE downloads (
      id INTEGER PRIMARY KEY,
      upload_id TEXT NOT NULL,
      artist_username TEXT NOT NULL,
      title TEXT NOT NULL,
      url TEXT NOT NULL,
      -- Absolute path of the final file; the partial file is this plus ".part".
      target_path TEXT NOT NULL,
      -- queued, downloading, paused, completed, failed or canceled.
      state TEXT NOT NULL CHECK (state IN ('queued', 'downloading', 'paused', 'completed', 'failed', 'canceled')),
      bytes_done INTEGER NOT NULL DEFAULT 0,
      bytes_total INTEGER NOT NULL,
      -- The ETag (or else Last-Modified) the partial file was fetched under.
      validator TEXT,
      sha256 TEXT,
      error TEXT,
      created_at INTEGER NOT NULL,
      started_at INTEGER,
      finished_at INTEGER
    ) STRICT;
    CREATE INDEX downloads_by_state ON downloads (state, id);
    CREATE INDEX downloads_by_upload ON downloads (upload_id);
    -- Bytes received per calendar month (UTC), for the tier screen.
    CREATE TABLE download_months (
      month TEXT PRIMARY KEY,
      bytes INTEGER NOT NULL
    ) STRICT;
  `
