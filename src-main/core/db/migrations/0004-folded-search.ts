/**
 * The search index holds the words of each text exactly as the service's
 * search sees them: split and folded by the app (the `search_text()` SQL
 * function over shared/text's `searchWords`: compatibility decomposition,
 * marks removed in every script, case folded, runs of letters and digits), so
 * `aesthetic` finds `Ａｅｓｔｈｅｔｉｃ` and `ψυχη` finds `Ψυχή`. The tokenizer
 * only splits that text at its spaces: `ascii` leaves every other character
 * in its word. `unicode61` would judge letters by SQLite's older Unicode
 * tables and fold case again, and then disagree with the service: an emoji
 * skin tone or a ruble sign glued to the next word, a private-use character
 * dropped instead of splitting, `ς` read as `σ`. The index is contentless (it
 * keeps no copy of the text), with deletes by rowid.
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
      tokenize = 'ascii',
      prefix = '1 2 3'
    );
    -- While the first sync fills an empty cache, the index is built once at the end of the lists
    -- (one bulk insert is many times faster than row by row); the meta row 'fts_rebuild_pending' says so.
    CREATE TRIGGER artists_fts_insert AFTER INSERT ON artists
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'fts_rebuild_pending')
    BEGIN
      INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
      VALUES (new.id, search_text(new.username), search_text(new.pf_name), search_text(new.pf_bio), search_text(new.location_name), new.search_flags);
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
      VALUES (new.id, search_text(new.username), search_text(new.pf_name), search_text(new.pf_bio), search_text(new.location_name), new.search_flags);
    END;
    INSERT INTO artists_fts (rowid, username, pf_name, pf_bio, location_name, search_flags)
    SELECT id, search_text(username), search_text(pf_name), search_text(pf_bio), search_text(location_name), search_flags FROM artists;
  `
