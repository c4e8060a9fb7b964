/**
 * Artists by display name. Display names are not unique (five demo artists are
 * "Ａｅｓｔｈｅｔｉｃ"), and an artist's downloads go into a folder named after
 * theirs: queuing a track asks whether another artist would have the same
 * folder (downloads/plan.ts), one index lookup rather than a pass over every
 * artist. Trimmed and ASCII case folded, as the folder's name is on a file
 * system that ignores case (db/artists.ts, artistsNamedLike, compares the exact folder names).
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE INDEX artists_by_name ON artists (trim(pf_name) COLLATE NOCASE);
  `
