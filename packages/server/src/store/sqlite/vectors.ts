import type { EmbeddingSource, StoredVector, VectorStore } from '../vector-store.js';
import type { GroupCommit } from './group-commit.js';
import type { SqliteDatabase } from './open-database.js';
import { lazyStatements } from './lazy-statement.js';
import { snapshotJson } from './snapshot-json.js';

const NOW_MS = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`;

/** Snapshot vectors on SQLite: a plain table, read whole per brain by the in-process index. */
export class SqliteVectorStore implements VectorStore {
  private readonly stmt;

  constructor(
    db: SqliteDatabase,
    private readonly writes: GroupCommit,
  ) {
    const prepared = lazyStatements(db);
    this.stmt = {
      sources: prepared<EmbeddingSource>(
        `SELECT id, brain_id, ${snapshotJson} AS json FROM snapshots WHERE id IN (SELECT value FROM json_each(@ids))`,
      ),
      save: prepared<never>(
        `INSERT OR REPLACE INTO snapshot_vectors (snapshot_id, brain_id, model, dimension, text_hash, vector, updated_at)
         SELECT @snapshot_id, @brain_id, @model, @dimension, @text_hash, @vector, @updated_at
         WHERE EXISTS (SELECT 1 FROM snapshots WHERE id = @snapshot_id)`,
      ),
      vectorsOf: prepared<{ snapshot_id: string; vector: Buffer }>(
        `SELECT snapshot_id, vector FROM snapshot_vectors WHERE brain_id = @brain AND model = @model`,
      ),
      stamp: prepared<{ stamp: string }>(
        `SELECT count(*) || ':' || coalesce(max(rowid), 0) AS stamp FROM snapshot_vectors WHERE brain_id = @brain AND model = @model`,
      ),
      queueMissing: prepared<never>(
        `INSERT INTO background_work (kind, subject_id, brain_id, run_after)
         SELECT 'embed', s.id, s.brain_id, ${NOW_MS} FROM snapshots s
         WHERE NOT EXISTS (SELECT 1 FROM snapshot_vectors v WHERE v.snapshot_id = s.id AND v.model = @model)
         ON CONFLICT (kind, subject_id) DO NOTHING`,
      ),
    };
  }

  async embeddingSources(ids: string[]): Promise<EmbeddingSource[]> {
    return ids.length === 0 ? [] : this.stmt.sources().all({ ids: JSON.stringify(ids) });
  }

  saveVectors(vectors: StoredVector[]): Promise<void> {
    return this.writes.run(() => {
      for (const vector of vectors) this.stmt.save().run({ ...vector });
    });
  }

  async vectorsOf(brainId: string, model: string) {
    return this.stmt.vectorsOf().all({ brain: brainId, model });
  }

  async vectorStamp(brainId: string, model: string): Promise<string> {
    return this.stmt.stamp().get({ brain: brainId, model })?.stamp ?? '0:0';
  }

  queueMissingEmbeddings(model: string): Promise<number> {
    return this.writes.run(() => this.stmt.queueMissing().run({ model }).changes);
  }
}
