import { bufferToVector, type EmbeddingProvider } from '../../providers/index.js';
import type { VectorKind, VectorStore } from '../../store/vector-store.js';

/** A brain's vectors of one model, as one matrix (rows are unit length, so dot = cosine). */
interface BrainVectors {
  stamp: string;
  checkedAt: number;
  ids: string[];
  rowOf: Map<string, number>;
  matrix: Float32Array;
  dimension: number;
}

/** The similarity of a query to every snapshot (or memory) of a brain that has a vector. */
export interface MeaningView {
  /** The `limit` nearest, most similar first, from `min` up. */
  nearest(limit: number, min: number): { id: string; similarity: number }[];
  /** A snapshot's similarity, or undefined when it has no vector (yet). */
  of(id: string): number | undefined;
}

const QUERY_CACHE_SIZE = 1000;
/** How long a brain's matrix is trusted before its stamp is checked again (other instances' writes). */
const STAMP_TTL_MS = 1000;

/**
 * Exact nearest-neighbour search in process, on both stores (docs/decisions.md, "Vector index"):
 * a brain's vectors of a kind (snapshots, memories) are read once into one Float32Array and kept
 * until their stamp (count and a write counter) changes; a query is one pass of dot products.
 */
export class SemanticIndex {
  private readonly brains = new Map<string, BrainVectors>();
  private readonly queries = new Map<string, Float32Array>();
  /** How the provider's last call went, for /readyz. */
  providerState: 'ok' | 'unavailable' | 'not called yet' = 'not called yet';

  constructor(
    readonly provider: EmbeddingProvider,
    private readonly store: VectorStore,
    private readonly now: () => number,
  ) {}

  /** How the query relates to the brain's snapshots (or memories) by meaning; calls the provider for new queries. */
  async view(brainId: string, query: string, kind: VectorKind = 'snapshot'): Promise<MeaningView> {
    const [vector, brain] = await Promise.all([this.queryVector(query), this.brainVectors(kind, brainId)]);
    const scores = new Float32Array(brain.ids.length);
    if (vector.length === brain.dimension) {
      const d = brain.dimension;
      for (let row = 0; row < brain.ids.length; row++) {
        let sum = 0;
        const offset = row * d;
        for (let i = 0; i < d; i++) sum += (brain.matrix[offset + i] as number) * (vector[i] as number);
        scores[row] = sum;
      }
    }
    return {
      nearest: (limit, min) => {
        const rows: number[] = [];
        for (let row = 0; row < scores.length; row++) if ((scores[row] as number) >= min) rows.push(row);
        rows.sort((a, b) => (scores[b] as number) - (scores[a] as number));
        return rows.slice(0, limit).map((row) => ({ id: brain.ids[row] as string, similarity: scores[row] as number }));
      },
      of: (id) => {
        const row = brain.rowOf.get(id);
        return row === undefined ? undefined : Math.max(0, scores[row] as number);
      },
    };
  }

  /**
   * The snapshots of the brain nearest in meaning to one of its own (by its stored vector; no
   * provider call), most similar first, from `min` up; none while it has no vector.
   */
  async neighboursOf(brainId: string, snapshotId: string, limit: number, min: number) {
    const brain = await this.brainVectors('snapshot', brainId);
    const row = brain.rowOf.get(snapshotId);
    if (row === undefined) return [];
    const d = brain.dimension;
    const own = brain.matrix.subarray(row * d, row * d + d);
    const near: { id: string; similarity: number }[] = [];
    for (let other = 0; other < brain.ids.length; other++) {
      if (other === row) continue;
      let sum = 0;
      for (let i = 0; i < d; i++) sum += (brain.matrix[other * d + i] as number) * (own[i] as number);
      if (sum >= min) near.push({ id: brain.ids[other] as string, similarity: sum });
    }
    return near.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
  }

  /** This process wrote vectors of a kind in these brains: read them again next time (others within a second). */
  forget(kind: VectorKind, brainIds: Iterable<string>): void {
    for (const id of brainIds) this.brains.delete(`${kind}:${id}`);
  }

  /** The provider's vectors for `texts` (every call goes through here, so its state is known). */
  async embed(texts: string[]): Promise<Float32Array[]> {
    try {
      const { vectors } = await this.provider.embed(texts);
      this.providerState = 'ok';
      return vectors;
    } catch (err) {
      this.providerState = 'unavailable';
      throw err;
    }
  }

  private async queryVector(text: string): Promise<Float32Array> {
    const cached = this.queries.get(text);
    if (cached) return cached;
    const [vector] = await this.embed([text]);
    if (this.queries.size >= QUERY_CACHE_SIZE) this.queries.delete(this.queries.keys().next().value as string);
    this.queries.set(text, vector as Float32Array);
    return vector as Float32Array;
  }

  private async brainVectors(kind: VectorKind, brainId: string): Promise<BrainVectors> {
    const model = this.provider.model;
    const cacheKey = `${kind}:${brainId}`;
    const kept = this.brains.get(cacheKey);
    const now = this.now();
    if (kept && now - kept.checkedAt < STAMP_TTL_MS) return kept;
    const stamp = await this.store.vectorStamp(kind, brainId, model);
    if (kept && kept.stamp === stamp) {
      kept.checkedAt = now;
      return kept;
    }
    const rows = await this.store.vectorsOf(kind, brainId, model);
    const dimension = rows[0] ? rows[0].vector.byteLength / 4 : 0;
    const usable = rows.filter((row) => row.vector.byteLength === dimension * 4);
    const matrix = new Float32Array(usable.length * dimension);
    usable.forEach((row, i) => matrix.set(bufferToVector(row.vector), i * dimension));
    const ids = usable.map((row) => row.id);
    const fresh = { stamp, checkedAt: now, ids, rowOf: new Map(ids.map((id, i) => [id, i])), matrix, dimension };
    this.brains.set(cacheKey, fresh);
    return fresh;
  }
}
