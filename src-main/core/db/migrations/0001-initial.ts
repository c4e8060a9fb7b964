/**
 * The catalogue mirror: artists, tracks, access levels, avatars, sync runs and the search index.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE TABLE meta (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;

    CREATE TABLE artists (
      id INTEGER PRIMARY KEY,
      username TEXT NOT NULL,
      -- Usernames are unique without regard to case, in every script (JS toLowerCase).
      username_key TEXT NOT NULL UNIQUE,
      num_tracks INTEGER NOT NULL,
      pf_name TEXT NOT NULL,
      pf_facebook TEXT,
      pf_twitter TEXT,
      pf_website TEXT,
      pf_bio TEXT NOT NULL,
      avatar TEXT NOT NULL,
      avatar_thumb TEXT NOT NULL,
      location_id INTEGER,
      location_name TEXT,
      user_username TEXT,
      -- The items of the list result as JSON (subtype and upload id only).
      listed_items TEXT NOT NULL,
      is_podcaster INTEGER NOT NULL DEFAULT 0,
      -- Position in each sort order of the service at the last sync; NULL once gone.
      rank_trending INTEGER,
      rank_top INTEGER,
      rank_recently_created INTEGER,
      rank_recently_updated INTEGER,
      -- A digest of the list entry; a detail fetch records the digest it was fetched for.
      list_signature TEXT NOT NULL,
      listed_run INTEGER NOT NULL,
      gone_at INTEGER,
      detail_signature TEXT,
      detail_fetched_at INTEGER,
      detail_error TEXT,
      -- The list filters as words, so that search filters inside the full-text index. Only the
      -- rarer side of each filter is a word: short lists are cheap to intersect, or to exclude.
      search_flags TEXT GENERATED ALWAYS AS (
        iif(gone_at IS NULL, '', 'gone ') || iif(num_tracks > 0, '', 'blank ') || iif(is_podcaster = 1, 'podcast', '')
      ) VIRTUAL
    ) STRICT;

    CREATE TABLE tracks (
      upload_id TEXT PRIMARY KEY,
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
      item_artist TEXT
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX tracks_by_artist ON tracks (artist_id, position);

    CREATE TABLE access_levels (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      maxsize INTEGER NOT NULL,
      price INTEGER NOT NULL,
      bandwidth INTEGER NOT NULL,
      storage INTEGER NOT NULL
    ) STRICT;

    -- Avatar images by the address the service gives (protocol-relative or absolute), for offline display.
    CREATE TABLE avatars (
      url TEXT PRIMARY KEY,
      content_type TEXT NOT NULL,
      body BLOB NOT NULL,
      fetched_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE sync_runs (
      id INTEGER PRIMARY KEY,
      started_at INTEGER NOT NULL,
      finished_at INTEGER,
      -- running, cancelled, failed or completed; a run that is not completed is resumed.
      state TEXT NOT NULL,
      phase TEXT NOT NULL,
      error TEXT,
      details_fetched INTEGER NOT NULL DEFAULT 0
    ) STRICT;

    -- What a run has seen of each list pass, applied to artists in one step when the lists are complete.
    CREATE TABLE sync_pages (
      run_id INTEGER NOT NULL REFERENCES sync_runs (id) ON DELETE CASCADE,
      pass TEXT NOT NULL,
      page INTEGER NOT NULL,
      pages INTEGER NOT NULL,
      PRIMARY KEY (run_id, pass, page)
    ) STRICT;
    CREATE TABLE sync_ranks (
      run_id INTEGER NOT NULL REFERENCES sync_runs (id) ON DELETE CASCADE,
      pass TEXT NOT NULL,
      artist_id INTEGER NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (run_id, pass, artist_id)
    ) STRICT, WITHOUT ROWID;

    CREATE VIRTUAL TABLE artists_fts USING fts5 (
      username, pf_name, pf_bio, location_name, search_flags,
      content = 'artists', content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '1 2 3'
    );
    -- While the first sync fills an empty cache, the index is built once at the end of the lists
    -- ('rebuild' is many times faster than row by row); the meta row 'fts_rebuild_pending' says so.
    CREATE TRIGGER artists_fts_insert AFTER INSERT ON artists
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_rebuild_pending')
    BEGIN
      INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
      VALUES (new.id, new.username, new.pf_name, new.pf_bio, new.location_name, new.search_flags);
    END;
    CREATE TRIGGER artists_fts_delete AFTER DELETE ON artists
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_rebuild_pending')
    BEGIN
      INSERT INTO artists_fts (artists_fts, rowid, username, pf_name, pf_bio, location_name, search_flags)
      VALUES ('delete', old.id, old.username, old.pf_name, old.pf_bio, old.location_name, old.search_flags);
    END;
    -- Only changes to indexed text or to a filter touch the index; a new position in a sort order does not.
    CREATE TRIGGER artists_fts_update AFTER UPDATE OF username, pf_name, pf_bio, location_name, gone_at, num_tracks, is_podcaster
    ON artists WHEN (old.username IS NOT new.username OR old.pf_name IS NOT new.pf_name OR old.pf_bio IS NOT new.pf_bio
      OR old.location_name IS NOT new.location_name OR old.search_flags IS NOT new.search_flags)
      AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_rebuild_pending')
    BEGIN
      INSERT INTO artists_fts (artists_fts, rowid, username, pf_name, pf_bio, location_name, search_flags)
      VALUES ('delete', old.id, old.username, old.pf_name, old.pf_bio, old.location_name, old.search_flags);
      INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
      VALUES (new.id, new.username, new.pf_name, new.pf_bio, new.location_name, new.search_flags);
    END;

    -- Two covering indexes per sort order: one for every artist, one per kind
    -- (podcasts or musicians); num_tracks rides along for "include artists without tracks".
    CREATE INDEX artists_by_trending ON artists (rank_trending, num_tracks) WHERE rank_trending IS NOT NULL;
    CREATE INDEX artists_by_kind_trending ON artists (is_podcaster, rank_trending, num_tracks) WHERE rank_trending IS NOT NULL;
    CREATE INDEX artists_by_top ON artists (rank_top, num_tracks) WHERE rank_top IS NOT NULL;
    CREATE INDEX artists_by_kind_top ON artists (is_podcaster, rank_top, num_tracks) WHERE rank_top IS NOT NULL;
    CREATE INDEX artists_by_recently_created ON artists (rank_recently_created, num_tracks) WHERE rank_recently_created IS NOT NULL;
    CREATE INDEX artists_by_kind_recently_created ON artists (is_podcaster, rank_recently_created, num_tracks) WHERE rank_recently_created IS NOT NULL;
    CREATE INDEX artists_by_recently_updated ON artists (rank_recently_updated, num_tracks) WHERE rank_recently_updated IS NOT NULL;
    CREATE INDEX artists_by_kind_recently_updated ON artists (is_podcaster, rank_recently_updated, num_tracks) WHERE rank_recently_updated IS NOT NULL;
  `
