import type { SqliteDatabase } from '../open-database.js';
import { lazyStatements } from '../lazy-statement.js';
import type { SqliteMemorySearch } from '../memory-search.js';
import type { IndexedMemoryText, MemoryTextFeed } from './feed-types.js';

/** What the word index of memories reads of each (its key, type and text). */
const TEXTS = `SELECT r.rowid AS key, r.memory_type, m.content, m.speaker, m.tags
  FROM memory_search_rows r JOIN memories m ON m.id = r.memory_id`;
const LATEST_CHANGE = 'SELECT coalesce(max(seq), 0) FROM memory_search_changes';
type TextRow = Omit<IndexedMemoryText, 'tags'> & { tags: string };
const textFromRow = (row: TextRow): IndexedMemoryText => ({ ...row, tags: JSON.parse(row.tags) as string[] });

/**
 * The log of index changes (migration 14) and the texts, for the word index of memories; `path`
 * is the database file its builds in a worker open (none for a database in memory).
 */
export function sqliteTextFeed(db: SqliteDatabase, search: SqliteMemorySearch, path?: string): MemoryTextFeed {
  const prepared = lazyStatements(db);
  const stmt = {
    changeMarks: prepared<{ latest: number; oldest: number }>(
      `SELECT (${LATEST_CHANGE}) AS latest,
         (SELECT coalesce(min(seq), 0) FROM memory_search_changes) AS oldest`,
    ),
    changedKeys: prepared<number>(
      'SELECT DISTINCT search_rowid FROM memory_search_changes WHERE seq > @after AND seq <= @up_to',
    ),
    brainTexts: prepared<TextRow>(`${TEXTS} WHERE r.rowid > @after AND r.rowid <= @hi ORDER BY r.rowid LIMIT @limit`),
    keysOf: prepared<[string, number]>(
      'SELECT memory_id, rowid FROM memory_search_rows WHERE memory_id IN (SELECT value FROM json_each(@ids))',
    ),
    texts: prepared<TextRow>(`${TEXTS} WHERE r.rowid IN (SELECT value FROM json_each(@keys))`),
  };
  const range = (brainId: string) => search.brainRange(brainId);
  const inFile = path !== undefined && path !== '' && path !== ':memory:';
  return {
    workerReads: inFile
      ? {
          path: path as string,
          seq: LATEST_CHANGE,
          texts: `${TEXTS} WHERE r.rowid BETWEEN @lo AND @hi ORDER BY r.rowid`,
        }
      : undefined,
    changeMarks: () => stmt.changeMarks().get({}) ?? { latest: 0, oldest: 0 },
    changedKeys: (after, upTo) => stmt.changedKeys().pluck().all({ after, up_to: upTo }),
    brainKeys: (brainId) => {
      const keys = range(brainId);
      if (!keys) return undefined;
      const written = search.brainSize(keys);
      return { ...keys, written };
    },
    brainTexts: (brainId, after, limit) => {
      const keys = range(brainId);
      if (!keys) return [];
      return stmt
        .brainTexts()
        .all({ after: BigInt(Math.max(after, keys.lo - 1)), hi: BigInt(keys.hi), limit })
        .map(textFromRow);
    },
    keysOf: (ids) =>
      new Map(
        stmt
          .keysOf()
          .raw()
          .all({ ids: JSON.stringify(ids) }),
      ),
    texts: (keys) =>
      stmt
        .texts()
        .all({ keys: JSON.stringify(keys) })
        .map(textFromRow),
    memories: (keys) => search.atKeys(keys),
    countMatches: (filters) => search.countMatches(filters),
  };
}
