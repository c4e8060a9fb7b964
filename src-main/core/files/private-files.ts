/**
 * What the data folder holds is its user's alone: the settings (the base URL may
 * carry a password), the caches (the catalogue, what was downloaded and where).
 * The folders the app makes for them are 0700 and the files 0600; files an older
 * version left readable by others are closed up when they are opened. Windows
 * has no such modes (there the user's profile keeps them private): chmod only
 * sets or clears the read-only flag, which 0600 leaves clear.
 */
import fs from 'node:fs'

export const PRIVATE_FOLDER_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/** The companions SQLite keeps beside a database in WAL mode; it gives them the database file's mode. */
const SQLITE_COMPANIONS = ['-wal', '-shm'] as const

/** Makes an existing file readable by its user alone (a file that is not there is left so). */
export function keepPrivate(file: string): void {
  try {
    if ((fs.statSync(file).mode & 0o777) !== PRIVATE_FILE_MODE) fs.chmodSync(file, PRIVATE_FILE_MODE)
  } catch {
    // Missing, or not this user's to change (a shared data folder): opening it goes on as before.
  }
}

/**
 * Before SQLite opens a database file: created empty with mode 0600 when it is
 * missing (SQLite would make it 0644, and its -wal and -shm files like it), and
 * made 0600 with its companions when it exists.
 */
export function keepDatabasePrivate(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, PRIVATE_FILE_MODE))
  } catch {
    // There already (then made private below), or not to be made here: SQLite's own open says why.
  }
  for (const suffix of ['', ...SQLITE_COMPANIONS]) keepPrivate(file + suffix)
}
