import type pg from 'pg';
import type { EmbeddingSource, StoredVector, VectorStore } from '../vector-store.js';
import { snapshotJson } from './snapshot-json.js';

const SQL = {
  vectorsSources: `SELECT id, brain_id, ${snapshotJson} AS json FROM snapshots WHERE id = ANY($1::text[])`,
  vectorsSave: `INSERT INTO snapshot_vectors (snapshot_id, brain_id, model, dimension, text_hash, vector, updated_at)
    SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM snapshots WHERE id = $1)
    ON CONFLICT (snapshot_id) DO UPDATE SET brain_id = excluded.brain_id, model = excluded.model,
      dimension = excluded.dimension, text_hash = excluded.text_hash, vector = excluded.vector,
      updated_at = excluded.updated_at, version = nextval(pg_get_serial_sequence('snapshot_vectors', 'version'))`,
  vectorsOf: `SELECT snapshot_id, vector FROM snapshot_vectors WHERE brain_id = $1 AND model = $2`,
  vectorsStamp: `SELECT count(*) || ':' || coalesce(max(version), 0) AS stamp FROM snapshot_vectors WHERE brain_id = $1 AND model = $2`,
  vectorsQueueMissing: `INSERT INTO background_work (kind, subject_id, brain_id)
    SELECT 'embed', s.id, s.brain_id FROM snapshots s
    WHERE NOT EXISTS (SELECT 1 FROM snapshot_vectors v WHERE v.snapshot_id = s.id AND v.model = $1)
    ON CONFLICT (kind, subject_id) DO NOTHING`,
} as const;

/** Snapshot vectors on PostgreSQL (bytea; pgvector is not assumed: see docs/decisions.md). */
export class PostgresVectorStore implements VectorStore {
  constructor(private readonly pool: pg.Pool) {}

  private query<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[]) {
    return this.pool.query<R>({ name, text: SQL[name], values });
  }

  async embeddingSources(ids: string[]): Promise<EmbeddingSource[]> {
    return ids.length === 0 ? [] : (await this.query<EmbeddingSource>('vectorsSources', [ids])).rows;
  }

  async saveVectors(vectors: StoredVector[]): Promise<void> {
    for (const v of vectors) {
      await this.query('vectorsSave', [
        v.snapshot_id,
        v.brain_id,
        v.model,
        v.dimension,
        v.text_hash,
        v.vector,
        v.updated_at,
      ]);
    }
  }

  async vectorsOf(brainId: string, model: string) {
    return (await this.query<{ snapshot_id: string; vector: Buffer }>('vectorsOf', [brainId, model])).rows;
  }

  async vectorStamp(brainId: string, model: string): Promise<string> {
    return (await this.query<{ stamp: string }>('vectorsStamp', [brainId, model])).rows[0]?.stamp ?? '0:0';
  }

  async queueMissingEmbeddings(model: string): Promise<number> {
    return (await this.query('vectorsQueueMissing', [model])).rowCount ?? 0;
  }
}
