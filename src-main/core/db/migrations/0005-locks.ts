/**
 * Work that only one process may do at a time on a cache (a sync): who holds
 * it, and when it last said it is alive, so a crashed holder's lock goes stale.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    CREATE TABLE locks (
      name TEXT PRIMARY KEY,
      -- A random token per holder: only the holder can refresh or release its lock.
      token TEXT NOT NULL,
      pid INTEGER NOT NULL,
      host TEXT NOT NULL,
      acquired_at INTEGER NOT NULL,
      heartbeat_at INTEGER NOT NULL
    ) STRICT;
  `
