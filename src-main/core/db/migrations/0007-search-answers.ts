/**
 * Trending order by artist: a narrow index that a search listing thousands of
 * artists in trending order reads for each match (see db/search.ts), instead
 * of each match's whole row.
 *
 * Stored answers of the broadest searches (see db/search.ts): for a word that
 * matches very many artists, per list filter (kind, and whether artists
 * without tracks are included), how many artists it finds and the ids of its
 * first results in order (JSON; NULL where that filter's results are ranked
 * when asked). Written when a sync ends, for the catalogue version named by
 * the meta row 'search_answers_for'; a later write to the catalogue makes them
 * stale, and they are not read then. A migration that rebuilds the search
 * index must empty this table.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE TABLE search_answers (
      word TEXT NOT NULL,
      kind TEXT NOT NULL,
      include_blank INTEGER NOT NULL,
      total INTEGER NOT NULL,
      first_ids TEXT,
      PRIMARY KEY (word, kind, include_blank)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX artists_trending_by_id ON artists (id, rank_trending);
  `
