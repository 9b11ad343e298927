/** A snapshot's embedding as stored: float32 little-endian bytes (providers/vectors.ts). */
export interface StoredVector {
  snapshot_id: string;
  brain_id: string;
  model: string;
  dimension: number;
  text_hash: string;
  vector: Buffer;
  updated_at: string;
}

/** What an embedding is computed from. */
export interface EmbeddingSource {
  id: string;
  brain_id: string;
  /** The snapshot as the API's JSON text. */
  json: string;
}

/** Vectors for semantic search, on both stores (DESIGN 4.3). */
export interface VectorStore {
  /** The snapshots of `ids` that still exist, whatever their account (background work). */
  embeddingSources(ids: string[]): Promise<EmbeddingSource[]>;
  /** Stores vectors, replacing any a snapshot had (for any model). Vectors of deleted snapshots are dropped. */
  saveVectors(vectors: StoredVector[]): Promise<void>;
  /** A brain's vectors of one model, for the in-process index. */
  vectorsOf(brainId: string, model: string): Promise<{ snapshot_id: string; vector: Buffer }[]>;
  /** Changes whenever the brain's vectors of the model do (a count and a write counter). */
  vectorStamp(brainId: string, model: string): Promise<string>;
  /** Queues an embed task for every snapshot without a vector of `model`; returns how many. */
  queueMissingEmbeddings(model: string): Promise<number>;
}
