import type {
  TextMatches,
  Contradiction,
  Evolution,
  FoundSnapshot,
  GraphEdge,
  ScopedSnapshot,
  ParsedQuery,
  SearchScope,
  SearchStore,
} from '../search-store.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';
import { snapshotJson } from './snapshot-json.js';
import { LiveTextIndex, SQLITE_FIELD_WEIGHTS } from './text-index/index.js';
import { InMemoryTextSearch } from './text-index/search.js';
import { Fts5Search, quoted } from './fts-search.js';
import { OffThreadFts } from './off-thread-fts.js';
import { IDS, type TextIndex } from './text-search.js';
import type { TextIndexEvent } from '../search-store.js';

export { SQLITE_FIELD_WEIGHTS };
export { ftsExpression } from './fts-search.js';

/** Document frequencies are kept a minute per word, and at most this many. */
const FREQUENCY_TTL_MS = 60_000;
const FREQUENCIES_KEPT = 100_000;

const HAS_TAG = (snapshotId: string) =>
  `(@tag IS NULL OR EXISTS (SELECT 1 FROM snapshots t, json_each(t.tags) WHERE t.id = ${snapshotId} AND json_each.value = @tag))`;

/**
 * Search on SQLite: BM25 over FTS5's index for text, plain indexed reads for the rest. Text is
 * found by one of two TextIndex engines with the same ranking (text-search.ts): queries of
 * plain words (most) by an index of our own kept in memory (text-index/), faster than scoring
 * through FTS5's auxiliary function; phrases, prefixes, tag filters, and every query while that
 * index is being built, by FTS5 (fts-search.ts).
 */
export class SqliteSearchStore implements SearchStore {
  private readonly stmt;
  private readonly frequencies = new Map<string, { n: number; at: number }>();
  private readonly textIndex: LiveTextIndex;
  private readonly index: TextIndex;
  /** FTS5 answers every query: the engine of last resort. */
  private readonly fts: Fts5Search;
  /** FTS5 for large brains, on a worker thread; none for a database in memory (no file to share). */
  private readonly offThreadFts: OffThreadFts | undefined;

  constructor(
    private readonly db: SqliteDatabase,
    path: string,
  ) {
    this.textIndex = new LiveTextIndex(db, { path });
    this.index = new InMemoryTextSearch(db, this.textIndex);
    this.fts = new Fts5Search(db);
    this.offThreadFts = path !== '' && path !== ':memory:' ? new OffThreadFts(path) : undefined;
    const prepared = lazyStatements(db);
    // `+brain_id`: a brain's index would read the whole brain; the ids are looked up instead.
    this.stmt = {
      // Counting stops at the cap: a common word's whole doclist is not walked. Over the whole
      // index, as BM25's own statistics are: a look-up of each match's brain cost up to 0.5 ms
      // a word, and a snapshot has dozens of words.
      frequency: prepared<number>(
        `SELECT count(*) FROM (SELECT 1 FROM snapshot_search WHERE snapshot_search MATCH @match LIMIT @cap)`,
      ),
      // Unranked, so that FTS5 stops at the cap; the linker only asks for rare phrases.
      holders: prepared<string>(
        `SELECT r.snapshot_id FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
         WHERE snapshot_search MATCH @match AND r.brain_id = @brain LIMIT @cap`,
      ),
      edgesTouching: prepared<GraphEdge>(
        `SELECT id, source_id, target_id, edge_type, strength FROM edges WHERE source_id IN ${IDS} AND +brain_id = @brain
         UNION SELECT id, source_id, target_id, edge_type, strength FROM edges WHERE target_id IN ${IDS} AND +brain_id = @brain
         ORDER BY strength DESC, id LIMIT @limit`,
      ),
      // From the older side, a handful of ids, in the partial index of evolved_from edges
      // (migration 8); `+source_id`: not the newer side's index.
      evolutionsInto: prepared<Evolution>(
        `SELECT source_id, target_id FROM edges INDEXED BY edges_evolutions_by_target
         WHERE target_id IN ${IDS} AND edge_type = 'evolved_from' AND brain_id = @brain
           AND +source_id IN (SELECT value FROM json_each(@newer))`,
      ),
      snapshotsIn: prepared<FoundSnapshot>(
        `SELECT id, name, created_at, ${snapshotJson} AS json FROM snapshots
         WHERE id IN ${IDS} AND +brain_id = @brain AND (@type IS NULL OR type = @type) AND ${HAS_TAG('snapshots.id')}`,
      ),
      inScope: prepared<ScopedSnapshot>(
        `SELECT id, created_at FROM snapshots
         WHERE id IN ${IDS} AND +brain_id = @brain AND (@type IS NULL OR type = @type) AND ${HAS_TAG('snapshots.id')}`,
      ),
      // In the partial indexes of contradicts edges (migration 8).
      contradictionsOf: prepared<Contradiction>(
        `SELECT e.source_id AS subject_id, e.target_id AS snapshot_id, o.name, e.id AS edge_id, e.strength
         FROM edges e INDEXED BY edges_contradicts_by_source JOIN snapshots o ON o.id = e.target_id
         WHERE e.source_id IN ${IDS} AND e.brain_id = @brain AND e.edge_type = 'contradicts'
         UNION ALL
         SELECT e.target_id, e.source_id, o.name, e.id, e.strength
         FROM edges e INDEXED BY edges_contradicts_by_target JOIN snapshots o ON o.id = e.source_id
         WHERE e.target_id IN ${IDS} AND e.brain_id = @brain AND e.edge_type = 'contradicts'
         ORDER BY strength DESC, edge_id`,
      ),
    };
  }

  /** The one place the text engine is chosen: the in-memory index when it can answer, else FTS5. */
  async textMatches(scope: SearchScope, query: ParsedQuery, limit: number): Promise<TextMatches> {
    const found = this.index.textMatches(scope, query, limit);
    if (found) return found;
    if (this.offThreadFts && this.fts.isLargeBrain(scope.brainId)) {
      return this.offThreadFts.textMatches(scope, query, limit);
    }
    return this.fts.textMatches(scope, query, limit);
  }

  /**
   * textMatches' hits without its count of every match, which costs a second pass over them,
   * from the same engine textMatches would use.
   */
  async bestMatchIds(brainId: string, query: ParsedQuery, limit: number): Promise<string[]> {
    return this.index.bestMatchIds(brainId, query, limit) ?? this.fts.bestMatchIds(brainId, query, limit);
  }

  textIndexStatus() {
    return this.textIndex.status();
  }

  onTextIndexEvent(listener: (event: TextIndexEvent) => void): void {
    this.textIndex.onEvent(listener);
  }

  /** Stops the in-memory index's upkeep (and any build) and the FTS5 worker; the store is closing. */
  async close(): Promise<void> {
    this.textIndex.close();
    await this.offThreadFts?.close();
  }

  async holdersOf(brainId: string, words: string[], cap: number): Promise<string[]> {
    if (words.length === 0) return [];
    return this.stmt
      .holders()
      .pluck()
      .all({ match: quoted(words), brain: brainId, cap }) as string[];
  }

  async documentFrequencies(_brainId: string, words: string[], cap: number): Promise<Map<string, number>> {
    const now = Date.now();
    const counted = new Map<string, number>();
    for (const word of words) {
      const key = `${cap}\u0000${word}`;
      const kept = this.frequencies.get(key);
      if (kept && now - kept.at < FREQUENCY_TTL_MS) {
        counted.set(word, kept.n);
        continue;
      }
      const n = this.stmt
        .frequency()
        .pluck()
        .get({ match: quoted([word]), cap }) as number;
      if (this.frequencies.size >= FREQUENCIES_KEPT) this.frequencies.clear();
      this.frequencies.set(key, { n, at: now });
      counted.set(word, n);
    }
    return counted;
  }

  async edgesTouching(brainId: string, ids: string[], limit: number) {
    if (ids.length === 0) return [];
    return this.stmt.edgesTouching().all({ brain: brainId, ids: JSON.stringify(ids), limit });
  }

  async snapshotsIn(scope: SearchScope, ids: string[]) {
    if (ids.length === 0) return [];
    return this.stmt.snapshotsIn().all({
      brain: scope.brainId,
      ids: JSON.stringify(ids),
      type: scope.type ?? null,
      tag: scope.tag ?? null,
    });
  }

  async inScope(scope: SearchScope, ids: string[]) {
    if (ids.length === 0) return [];
    return this.stmt.inScope().all({
      brain: scope.brainId,
      ids: JSON.stringify(ids),
      type: scope.type ?? null,
      tag: scope.tag ?? null,
    });
  }

  async evolutionsInto(brainId: string, older: string[], newer: string[]) {
    if (older.length === 0 || newer.length === 0) return [];
    return this.stmt.evolutionsInto().all({ brain: brainId, ids: JSON.stringify(older), newer: JSON.stringify(newer) });
  }

  async contradictionsOf(brainId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return this.stmt.contradictionsOf().all({ brain: brainId, ids: JSON.stringify(ids) });
  }
}
