import type pg from 'pg';
import type { EmbeddingSource, MemoryEmbeddingSource, StoredVector, VectorKind, VectorStore } from '../vector-store.js';
import { snapshotJson } from './snapshot-json.js';

/** Where each kind's vectors live, and the table of what they are vectors of. */
const TABLES = {
  snapshot: { vectors: 'snapshot_vectors', key: 'snapshot_id', subjects: 'snapshots' },
  memory: { vectors: 'memory_vectors', key: 'memory_id', subjects: 'memories' },
} as const;
type Table = (typeof TABLES)[VectorKind];

const save = (
  t: Table,
) => `INSERT INTO ${t.vectors} (${t.key}, brain_id, model, dimension, text_hash, vector, updated_at)
    SELECT $1, $2, $3, $4, $5, $6, $7 WHERE EXISTS (SELECT 1 FROM ${t.subjects} WHERE id = $1)
    ON CONFLICT (${t.key}) DO UPDATE SET brain_id = excluded.brain_id, model = excluded.model,
      dimension = excluded.dimension, text_hash = excluded.text_hash, vector = excluded.vector,
      updated_at = excluded.updated_at, version = nextval(pg_get_serial_sequence('${t.vectors}', 'version'))`;
const vectorsOf = (t: Table) => `SELECT ${t.key} AS id, vector FROM ${t.vectors} WHERE brain_id = $1 AND model = $2`;
const stamp = (t: Table) =>
  `SELECT count(*) || ':' || coalesce(max(version), 0) AS stamp FROM ${t.vectors} WHERE brain_id = $1 AND model = $2`;
const queueMissing = (t: Table) => `INSERT INTO background_work (kind, subject_id, brain_id)
    SELECT 'embed', s.id, s.brain_id FROM ${t.subjects} s
    WHERE NOT EXISTS (SELECT 1 FROM ${t.vectors} v WHERE v.${t.key} = s.id AND v.model = $1)
    ON CONFLICT (kind, subject_id) DO NOTHING`;

const SQL = {
  vectorsSources: `SELECT id, brain_id, ${snapshotJson} AS json FROM snapshots WHERE id = ANY($1::text[])`,
  vectorsMemorySources: `SELECT id, brain_id, content, tags FROM memories WHERE id = ANY($1::text[])`,
  vectorsSave: save(TABLES.snapshot),
  vectorsSaveMemory: save(TABLES.memory),
  vectorsOf: vectorsOf(TABLES.snapshot),
  vectorsOfMemories: vectorsOf(TABLES.memory),
  vectorsStamp: stamp(TABLES.snapshot),
  vectorsStampMemories: stamp(TABLES.memory),
  vectorsQueueMissing: queueMissing(TABLES.snapshot),
  vectorsQueueMissingMemories: queueMissing(TABLES.memory),
} as const;

/** Each kind's statements, by name (every statement is named, so a connection prepares it once). */
const STATEMENTS = {
  snapshot: { save: 'vectorsSave', of: 'vectorsOf', stamp: 'vectorsStamp' },
  memory: { save: 'vectorsSaveMemory', of: 'vectorsOfMemories', stamp: 'vectorsStampMemories' },
} as const;

/** Vectors on PostgreSQL (bytea; pgvector is not assumed: see docs/decisions.md). */
export class PostgresVectorStore implements VectorStore {
  constructor(private readonly pool: pg.Pool) {}

  private query<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[]) {
    return this.pool.query<R>({ name, text: SQL[name], values });
  }

  async embeddingSources(ids: string[]): Promise<EmbeddingSource[]> {
    return ids.length === 0 ? [] : (await this.query<EmbeddingSource>('vectorsSources', [ids])).rows;
  }

  async memoryEmbeddingSources(ids: string[]): Promise<MemoryEmbeddingSource[]> {
    return ids.length === 0 ? [] : (await this.query<MemoryEmbeddingSource>('vectorsMemorySources', [ids])).rows;
  }

  async saveVectors(kind: VectorKind, vectors: StoredVector[]): Promise<void> {
    for (const v of vectors) {
      await this.query(STATEMENTS[kind].save, [
        v.subject_id,
        v.brain_id,
        v.model,
        v.dimension,
        v.text_hash,
        v.vector,
        v.updated_at,
      ]);
    }
  }

  async vectorsOf(kind: VectorKind, brainId: string, model: string) {
    return (await this.query<{ id: string; vector: Buffer }>(STATEMENTS[kind].of, [brainId, model])).rows;
  }

  async vectorStamp(kind: VectorKind, brainId: string, model: string): Promise<string> {
    return (await this.query<{ stamp: string }>(STATEMENTS[kind].stamp, [brainId, model])).rows[0]?.stamp ?? '0:0';
  }

  async queueMissingEmbeddings(model: string): Promise<number> {
    const [snapshots, memories] = [
      await this.query('vectorsQueueMissing', [model]),
      await this.query('vectorsQueueMissingMemories', [model]),
    ];
    return (snapshots.rowCount ?? 0) + (memories.rowCount ?? 0);
  }
}
