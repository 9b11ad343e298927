import { linkSync, renameSync, rmSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

export interface BackupProgress {
  totalPages: number;
  remainingPages: number;
}

export interface BackupResult {
  pages: number;
  bytes: number;
  /** The moment the copy is of: every write committed before it is in the copy. */
  asOf: Date;
}

/** Pages copied per step: small enough for a progress bar to move, large enough to be quick. */
const PAGES_PER_STEP = 1024;

/**
 * Copies the SQLite database at `source` to `target` with SQLite's online backup API, while
 * other processes (a running server) keep writing to it (design §16.5).
 *
 * The copy is of one moment: a read transaction is opened on the source first and held until
 * the copy ends, so every step reads the same snapshot. In WAL mode that transaction blocks no
 * writer, and since the snapshot never changes under it, SQLite never has to restart the copy
 * (which, with writes arriving faster than the steps, could otherwise never finish). The copy is
 * written beside `target` and moved into place only when whole: an interrupted backup leaves no
 * file that looks complete. Without `overwrite`, an existing `target` is never replaced, even one
 * made while the copy ran.
 */
export async function backupSqliteFile(
  source: string,
  target: string,
  options: { overwrite: boolean; progress?: (progress: BackupProgress) => void },
): Promise<BackupResult> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  const partial = `${target}.partial-${process.pid}`;
  try {
    db.pragma('busy_timeout = 5000');
    // Taken before the snapshot, so every write committed before this time is in the copy.
    const asOf = new Date();
    db.exec('BEGIN');
    // A transaction in SQLite starts reading at its first read: this one fixes the moment.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    await db.backup(partial, {
      progress: (step) => {
        options.progress?.(step);
        return PAGES_PER_STEP;
      },
    });
    db.exec('COMMIT');
    finishCopy(partial, target, options.overwrite);
    const bytes = statSync(target).size;
    const pages = Math.ceil(bytes / (db.pragma('page_size', { simple: true }) as number));
    options.progress?.({ totalPages: pages, remainingPages: 0 });
    return { pages, bytes, asOf };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
}

/** Moves the whole copy to its name: `rename` replaces, `link` refuses a name already taken. */
function finishCopy(partial: string, target: string, overwrite: boolean): void {
  if (overwrite) {
    renameSync(partial, target);
    return;
  }
  linkSync(partial, target);
  rmSync(partial);
}
