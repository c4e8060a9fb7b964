/**
 * A first sync's search index grows with its lists. While 'fts_rebuild_pending' is set (an empty
 * cache filling), the triggers of 0004 leave the index alone, and the sync indexes the artists
 * stored so far in one statement at a time, about once a second (db/search.ts,
 * `indexArtistsSoFar`); the meta row 'fts_indexed_upto' holds the highest artist id indexed, and
 * exists only while the flag is set. An artist at or below it that changes (a podcaster found on
 * a later page, a detail that renames; or a row inserted there) is noted in search_stale, and the
 * next slice indexes it again with the new ones: in the index an artist's entry is replaced by a
 * delete and an insert, and one by one, each delete writes out the inserts before it, many times
 * the cost of the same rows in bulk. Until that slice, the artist is found as it was. One deleted
 * leaves the index at once (a search must not find a row that is gone).
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE TABLE search_stale (id INTEGER PRIMARY KEY) STRICT;
    CREATE TRIGGER search_stale_insert AFTER INSERT ON artists
    WHEN new.id <= (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'fts_indexed_upto')
    BEGIN
      INSERT OR IGNORE INTO search_stale (id) VALUES (new.id);
    END;
    CREATE TRIGGER search_stale_delete AFTER DELETE ON artists
    WHEN old.id <= (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'fts_indexed_upto')
    BEGIN
      DELETE FROM artists_fts WHERE rowid = old.id;
      DELETE FROM search_stale WHERE id = old.id;
    END;
    CREATE TRIGGER search_stale_update AFTER UPDATE OF username, pf_name, pf_bio, location_name, gone_at, num_tracks, is_podcaster
    ON artists WHEN (old.username IS NOT new.username OR old.pf_name IS NOT new.pf_name OR old.pf_bio IS NOT new.pf_bio
      OR old.location_name IS NOT new.location_name OR old.search_flags IS NOT new.search_flags)
      AND old.id <= (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'fts_indexed_upto')
    BEGIN
      INSERT OR IGNORE INTO search_stale (id) VALUES (old.id);
    END;
  `
