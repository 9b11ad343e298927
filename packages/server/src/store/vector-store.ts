/** What has vectors: snapshots, and memories (design §10, §12). */
export type VectorKind = 'snapshot' | 'memory';

/** An embedding as stored: float32 little-endian bytes (providers/vectors.ts). */
export interface StoredVector {
  /** The snapshot's or the memory's id. */
  subject_id: string;
  brain_id: string;
  model: string;
  dimension: number;
  text_hash: string;
  vector: Buffer;
  updated_at: string;
}

/** What a snapshot's embedding is computed from. */
export interface EmbeddingSource {
  id: string;
  brain_id: string;
  /** The snapshot as the API's JSON text. */
  json: string;
}

/** What a memory's embedding is computed from. */
export interface MemoryEmbeddingSource {
  id: string;
  brain_id: string;
  content: string;
  tags: string[];
}

/** Vectors for semantic search, on both stores (design §10). */
export interface VectorStore {
  /** The snapshots of `ids` that still exist, whatever their account (background work). */
  embeddingSources(ids: string[]): Promise<EmbeddingSource[]>;
  /** The memories of `ids` that still exist, whatever their account (background work). */
  memoryEmbeddingSources(ids: string[]): Promise<MemoryEmbeddingSource[]>;
  /** Stores vectors, replacing any a subject had (for any model). Vectors of deleted subjects are dropped. */
  saveVectors(kind: VectorKind, vectors: StoredVector[]): Promise<void>;
  /** A brain's vectors of one kind and model, for the in-process index. */
  vectorsOf(kind: VectorKind, brainId: string, model: string): Promise<{ id: string; vector: Buffer }[]>;
  /** Changes whenever the brain's vectors of the kind and model do (a count and a write counter). */
  vectorStamp(kind: VectorKind, brainId: string, model: string): Promise<string>;
  /** Queues an embed task for every snapshot and memory without a vector of `model`; returns how many. */
  queueMissingEmbeddings(model: string): Promise<number>;
}
