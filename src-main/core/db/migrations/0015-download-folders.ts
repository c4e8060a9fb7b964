/**
 * The folder each download was queued into. The writer checks, when it opens a partial file and
 * again before it puts the file in place, that the file lies in that folder's artist subfolder and
 * that the folder's real path holds it (downloads/transfer-job.ts, transfer.ts). The folder was
 * read from the target path (its parent's parent), which a rewritten target path carries with it:
 * a target moved to /elsewhere/x.mp3 was "inside" the folder /. It is kept apart now, written once
 * when the download is queued, so a target rewritten later no longer names its own folder; and it
 * is the folder of the download, not the setting, so downloads queued before the user picks
 * another folder still go where they were queued. Rows queued before this migration get the
 * folder their target was planned in: `<folder>/<artist>/<file>` (dirname, db/functions.ts).
 * Never edit this text once released: its checksum is stored in every cache it built.
 */
export const sql = `
    ALTER TABLE downloads ADD COLUMN folder TEXT NOT NULL DEFAULT '';
    UPDATE downloads SET folder = dirname(dirname(target_path));
  `
