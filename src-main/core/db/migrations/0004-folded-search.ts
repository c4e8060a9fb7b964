/**
 * The search index holds text folded exactly as the service folds it
 * (compatibility decomposition, marks removed in every script, case folded;
 * the app's `fold()` SQL function), so `aesthetic` finds `Ａｅｓｔｈｅｔｉｃ` and
 * `ψυχη` finds `Ψυχή`. The tokenizer then only splits: letters and digits make
 * words, as on the service. The index is contentless (it keeps no copy of the
 * text), with deletes by rowid.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    DROP TRIGGER artists_fts_insert;
    DROP TRIGGER artists_fts_delete;
    DROP TRIGGER artists_fts_update;
    DROP TABLE artists_fts;
    CREATE VIRTUAL TABLE artists_fts USING fts5 (
      username, pf_name, pf_bio, location_name, search_flags,
      content = '', contentless_delete = 1,
      tokenize = "unicode61 remove_diacritics 0 categories 'L* N*'",
      prefix = '1 2 3'
    );
    -- While the first sync fills an empty cache, the index is built once at the end of the lists
    -- (one bulk insert is many times faster than row by row); the meta row 'fts_rebuild_pending' says so.
    CREATE TRIGGER artists_fts_insert AFTER INSERT ON artists
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_rebuild_pending')
    BEGIN
      INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
      VALUES (new.id, fold(new.username), fold(new.pf_name), fold(new.pf_bio), fold(new.location_name), new.search_flags);
    END;
    CREATE TRIGGER artists_fts_delete AFTER DELETE ON artists
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_rebuild_pending')
    BEGIN
      DELETE FROM artists_fts WHERE rowid = old.id;
    END;
    -- Only changes to indexed text or to a filter touch the index; a new position in a sort order does not.
    CREATE TRIGGER artists_fts_update AFTER UPDATE OF username, pf_name, pf_bio, location_name, gone_at, num_tracks, is_podcaster
    ON artists WHEN (old.username IS NOT new.username OR old.pf_name IS NOT new.pf_name OR old.pf_bio IS NOT new.pf_bio
      OR old.location_name IS NOT new.location_name OR old.search_flags IS NOT new.search_flags)
      AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_rebuild_pending')
    BEGIN
      DELETE FROM artists_fts WHERE rowid = old.id;
      INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
      VALUES (new.id, fold(new.username), fold(new.pf_name), fold(new.pf_bio), fold(new.location_name), new.search_flags);
    END;
    INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
    SELECT id, fold(username), fold(pf_name), fold(pf_bio), fold(location_name), search_flags FROM artists;
  `
