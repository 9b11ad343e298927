import type { EmbeddingSource, MemoryEmbeddingSource, StoredVector, VectorKind, VectorStore } from '../vector-store.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';
import { snapshotJson } from './snapshot-json.js';

const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

/** Where each kind's vectors live, and the table of what they are vectors of. */
const TABLES = {
  snapshot: { vectors: 'snapshot_vectors', key: 'snapshot_id', subjects: 'snapshots' },
  memory: { vectors: 'memory_vectors', key: 'memory_id', subjects: 'memories' },
} as const;

/** Vectors on SQLite: plain tables, read whole per brain by the in-process index. */
export class SqliteVectorStore implements VectorStore {
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    const prepared = lazyStatements(db);
    const perKind = <R>(sql: (t: (typeof TABLES)[VectorKind]) => string) => ({
      snapshot: prepared<R>(sql(TABLES.snapshot)),
      memory: prepared<R>(sql(TABLES.memory)),
    });
    const queueMissing = (t: (typeof TABLES)[VectorKind]) =>
      `INSERT INTO background_work (kind, subject_id, brain_id, run_after)
       SELECT 'embed', s.id, s.brain_id, ${NOW_MS} FROM ${t.subjects} s
       WHERE NOT EXISTS (SELECT 1 FROM ${t.vectors} v WHERE v.${t.key} = s.id AND v.model = @model)
       ON CONFLICT (kind, subject_id) DO NOTHING`;
    this.stmt = {
      sources: prepared<EmbeddingSource>(
        `SELECT id, brain_id, ${snapshotJson} AS json FROM snapshots WHERE id IN (SELECT value FROM json_each(@ids))`,
      ),
      memorySources: prepared<Omit<MemoryEmbeddingSource, 'tags'> & { tags: string }>(
        `SELECT id, brain_id, content, tags FROM memories WHERE id IN (SELECT value FROM json_each(@ids))`,
      ),
      save: perKind<never>(
        (
          t,
        ) => `INSERT OR REPLACE INTO ${t.vectors} (${t.key}, brain_id, model, dimension, text_hash, vector, updated_at)
         SELECT @subject_id, @brain_id, @model, @dimension, @text_hash, @vector, @updated_at
         WHERE EXISTS (SELECT 1 FROM ${t.subjects} WHERE id = @subject_id)`,
      ),
      vectorsOf: perKind<{ id: string; vector: Buffer }>(
        (t) => `SELECT ${t.key} AS id, vector FROM ${t.vectors} WHERE brain_id = @brain AND model = @model`,
      ),
      stamp: perKind<{ stamp: string }>(
        (t) =>
          `SELECT count(*) || ':' || coalesce(max(rowid), 0) AS stamp FROM ${t.vectors} WHERE brain_id = @brain AND model = @model`,
      ),
      queueMissing: perKind<never>(queueMissing),
    };
  }

  async embeddingSources(ids: string[]): Promise<EmbeddingSource[]> {
    return ids.length === 0 ? [] : this.stmt.sources().all({ ids: JSON.stringify(ids) });
  }

  async memoryEmbeddingSources(ids: string[]): Promise<MemoryEmbeddingSource[]> {
    if (ids.length === 0) return [];
    const rows = this.stmt.memorySources().all({ ids: JSON.stringify(ids) });
    return rows.map((row) => ({ ...row, tags: JSON.parse(row.tags) as string[] }));
  }

  saveVectors(kind: VectorKind, vectors: StoredVector[]): Promise<void> {
    return this.writes.run(() => {
      for (const vector of vectors) this.stmt.save[kind]().run({ ...vector });
    });
  }

  async vectorsOf(kind: VectorKind, brainId: string, model: string) {
    return this.stmt.vectorsOf[kind]().all({ brain: brainId, model });
  }

  async vectorStamp(kind: VectorKind, brainId: string, model: string): Promise<string> {
    return this.stmt.stamp[kind]().get({ brain: brainId, model })?.stamp ?? '0:0';
  }

  queueMissingEmbeddings(model: string): Promise<number> {
    return this.writes.run(
      () =>
        this.stmt.queueMissing.snapshot().run({ model }).changes +
        this.stmt.queueMissing.memory().run({ model }).changes,
    );
  }
}
