/**
 * The queue's figures kept as it changes, so a window reads them without
 * reading the queue: the downloads screen shows each group's files and bytes
 * and the overall progress of a batch, and a queue of 10,000 downloads must
 * not cost 10,000 rows per look.
 *   download_totals  per state: how many downloads, their sizes together, and
 *                    the bytes of them on disk (as last saved);
 *   download_batch   the batch the overall progress measures: its number, and
 *                    the downloads completed in it with their sizes. A batch
 *                    starts when something becomes pending (queued,
 *                    downloading, paused) while nothing was; every pending
 *                    download is in it, and so is each one that completes while
 *                    it runs (downloads.batch says which batch a completed
 *                    download finished in). Failed and cancelled ones leave it.
 * Triggers keep both, in the transaction of the change itself. The batch under
 * way is found as the window used to find it: what is pending, and what
 * completed since the earliest of those was queued.
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
const PENDING = `('queued', 'downloading', 'paused')`
const PENDING_FILES = `(SELECT sum(files) FROM download_totals WHERE state IN ${PENDING})`

export const sql = `
    CREATE TABLE download_totals (
      state TEXT PRIMARY KEY,
      files INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      bytes_done INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;
    INSERT INTO download_totals (state, files, bytes, bytes_done)
      SELECT value, 0, 0, 0 FROM json_each('["queued", "downloading", "paused", "completed", "failed", "cancelled"]');
    UPDATE download_totals SET (files, bytes, bytes_done) =
      (SELECT count(*), coalesce(sum(bytes_total), 0), coalesce(sum(bytes_done), 0) FROM downloads WHERE downloads.state = download_totals.state);

    ALTER TABLE downloads ADD COLUMN batch INTEGER;
    CREATE TABLE download_batch (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      number INTEGER NOT NULL,
      files INTEGER NOT NULL,
      bytes INTEGER NOT NULL
    ) STRICT;
    UPDATE downloads SET batch = 1
      WHERE state = 'completed' AND finished_at >= (SELECT min(created_at) FROM downloads WHERE state IN ${PENDING});
    INSERT INTO download_batch (id, number, files, bytes)
      SELECT 1, 1, count(*), coalesce(sum(bytes_total), 0) FROM downloads WHERE batch = 1;

    CREATE TRIGGER downloads_counted_insert AFTER INSERT ON downloads BEGIN
      UPDATE download_batch SET number = number + 1, files = 0, bytes = 0
        WHERE new.state IN ${PENDING} AND ${PENDING_FILES} = 0;
      UPDATE download_totals SET files = files + 1, bytes = bytes + new.bytes_total, bytes_done = bytes_done + new.bytes_done
        WHERE state = new.state;
    END;

    CREATE TRIGGER downloads_counted_update AFTER UPDATE OF state, bytes_total, bytes_done ON downloads BEGIN
      UPDATE download_batch SET number = number + 1, files = 0, bytes = 0
        WHERE new.state IN ${PENDING} AND old.state NOT IN ${PENDING} AND ${PENDING_FILES} = 0;
      UPDATE download_batch SET files = files - 1, bytes = bytes - old.bytes_total
        WHERE old.state = 'completed' AND old.batch = number;
      UPDATE download_batch SET files = files + 1, bytes = bytes + new.bytes_total
        WHERE new.state = 'completed' AND (old.state != 'completed' OR old.batch = number);
      UPDATE downloads SET batch = (SELECT number FROM download_batch)
        WHERE id = new.id AND new.state = 'completed' AND old.state != 'completed';
      UPDATE download_totals SET files = files - 1, bytes = bytes - old.bytes_total, bytes_done = bytes_done - old.bytes_done
        WHERE state = old.state;
      UPDATE download_totals SET files = files + 1, bytes = bytes + new.bytes_total, bytes_done = bytes_done + new.bytes_done
        WHERE state = new.state;
    END;

    CREATE TRIGGER downloads_counted_delete AFTER DELETE ON downloads BEGIN
      UPDATE download_batch SET files = files - 1, bytes = bytes - old.bytes_total
        WHERE old.state = 'completed' AND old.batch = number;
      UPDATE download_totals SET files = files - 1, bytes = bytes - old.bytes_total, bytes_done = bytes_done - old.bytes_done
        WHERE state = old.state;
    END;
  `
