import type { Costed } from './budget.js';
import { type HnswIndex, OVERSAMPLE } from './hnsw.js';
import { dotRow, matrixBytes, scoreAll, type VectorMatrix } from './matrix.js';

/** Which search answered: a pass over every vector, or the approximate index. */
export type VectorIndexKind = 'exact' | 'hnsw';

/** The similarity of a query to every snapshot (or memory) of a brain that has a vector. */
export interface MeaningView {
  /** The `limit` nearest, most similar first, from `min` up. */
  nearest(limit: number, min: number): { id: string; similarity: number }[];
  /** A snapshot's similarity, or undefined when it has no vector (yet). */
  of(id: string): number | undefined;
  /** How `nearest` found them (explain's `vector_index`). */
  index: VectorIndexKind;
}

/**
 * Fewest candidates asked of the index, however small the limit: its search list grows with
 * them. Measured at 100,000 × 384 (bench/vectors.mjs --candidates): recall@10 0.957 with 30,
 * 0.991 with 100, 1.000 with 200, for 0.2 ms more at the median (docs/performance.md).
 */
const MIN_CANDIDATES = 200;

/**
 * One brain's vectors of one kind as this process holds them: the matrix read at `stamp`, and an
 * HNSW index built from an earlier (or the same) matrix. Rows the index does not know yet (written
 * since it was built) are searched exactly beside it, and ids it knows that are gone are left
 * out, so every write is seen on the next search while the index is rebuilt in the background.
 */
export class HeldVectors implements Costed {
  index: HnswIndex | undefined;
  /** The stamp of the matrix the index was built from. */
  indexStamp: string | undefined;
  /** Rows of the matrix that the index does not cover: new, or changed since its build. */
  uncovered: number[] = [];
  /** Ids whose vector changed since the index's matrix, and since the build in progress started. */
  private changed = new Set<string>();
  private changedSinceBuild: Set<string> | undefined;
  building: Promise<void> | undefined;
  /** How long the last build took, and when it ended (the pause before the next build). */
  lastBuildMs = 0;
  builtAt = 0;
  /** When a build last failed (performance.now()), or never. */
  failedAt = Number.NEGATIVE_INFINITY;

  constructor(
    public stamp: string,
    public checkedAt: number,
    public vectors: VectorMatrix,
  ) {}

  bytes(): number {
    return matrixBytes(this.vectors) + (this.index?.bytes ?? 0) + this.uncovered.length * 8;
  }

  /** The brain's vectors changed: the new matrix, searched beside the index until it is rebuilt. */
  replace(stamp: string, checkedAt: number, vectors: VectorMatrix): void {
    if (this.index || this.changedSinceBuild) {
      for (const id of changedIds(this.vectors, vectors)) {
        this.changed.add(id);
        this.changedSinceBuild?.add(id);
      }
    }
    this.stamp = stamp;
    this.checkedAt = checkedAt;
    this.vectors = vectors;
    this.cover();
  }

  /** A build of the current matrix starts: changes from now on are changes since that index. */
  buildStarted(): void {
    this.changedSinceBuild = new Set();
  }

  /** The index built from the matrix at `stamp` (or none: exact search), replacing any before. */
  attach(index: HnswIndex | undefined, stamp: string | undefined): void {
    this.index = index;
    this.indexStamp = stamp;
    this.changed = (index && this.changedSinceBuild) || new Set();
    this.changedSinceBuild = undefined;
    this.cover();
  }

  /** A build failed or was let go: the index before it (if any) goes on. */
  buildDropped(): void {
    this.changedSinceBuild = undefined;
  }

  /** Whether the index lags the matrix (or there is none). */
  stale(): boolean {
    return this.index === undefined || this.indexStamp !== this.stamp;
  }

  private cover(): void {
    const index = this.index;
    this.uncovered = [];
    if (!index) return;
    this.vectors.ids.forEach((id, row) => {
      if (!index.idSet.has(id) || this.changed.has(id)) this.uncovered.push(row);
    });
  }

  /** How `vector` relates to the brain's vectors: through the index when there is one, else exactly. */
  view(vector: Float32Array): MeaningView {
    return this.index ? this.approximateView(vector, this.index) : exactView(this.vectors, vector);
  }

  /** The rows nearest to one of the brain's own (linking's meaning candidates), itself left out. */
  neighboursOf(id: string, limit: number, min: number): { id: string; similarity: number }[] {
    const m = this.vectors;
    const row = m.rowOf.get(id);
    if (row === undefined) return [];
    const own = m.matrix.subarray(row * m.dimension, row * m.dimension + m.dimension);
    const near = this.index ? this.candidates(own, limit + 1) : m.ids.map((_, r) => r);
    const found: { id: string; similarity: number }[] = [];
    for (const other of near) {
      if (other === row) continue;
      const similarity = dotRow(m, other, own);
      if (similarity >= min) found.push({ id: m.ids[other] as string, similarity });
    }
    return found.sort((a, b) => b.similarity - a.similarity).slice(0, limit);
  }

  /** Rows the index proposes for about the `limit` nearest, and every row it does not cover. */
  private candidates(vector: Float32Array, limit: number): number[] {
    const rows = new Set<number>(this.uncovered);
    for (const id of (this.index as HnswIndex).search(vector, Math.max(limit * OVERSAMPLE, MIN_CANDIDATES))) {
      const row = this.vectors.rowOf.get(id);
      if (row !== undefined) rows.add(row);
    }
    return [...rows];
  }

  private approximateView(vector: Float32Array, index: HnswIndex): MeaningView {
    const m = this.vectors;
    const fits = vector.length === m.dimension;
    const known = new Map<number, number>();
    const similarity = (row: number) => {
      let s = known.get(row);
      if (s === undefined) {
        s = fits ? dotRow(m, row, vector) : 0;
        known.set(row, s);
      }
      return s;
    };
    return {
      index: 'hnsw',
      nearest: (limit, min) => {
        if (!fits || index.ids.length + this.uncovered.length === 0) return [];
        return this.candidates(vector, limit)
          .map((row) => ({ row, similarity: similarity(row) }))
          .filter((c) => c.similarity >= min)
          .sort((a, b) => b.similarity - a.similarity || a.row - b.row)
          .slice(0, limit)
          .map((c) => ({ id: m.ids[c.row] as string, similarity: c.similarity }));
      },
      of: (id) => {
        const row = m.rowOf.get(id);
        return row === undefined ? undefined : Math.max(0, similarity(row));
      },
    };
  }
}

/**
 * Ids in both matrices whose vectors differ (an update: the index placed the old one). One pass
 * over the floats, as long as reading them from the store took.
 */
function changedIds(before: VectorMatrix, after: VectorMatrix): string[] {
  const changed: string[] = [];
  if (before.dimension !== after.dimension) return after.ids;
  const d = after.dimension;
  after.ids.forEach((id, row) => {
    const old = before.rowOf.get(id);
    if (old === undefined) return;
    for (let i = 0; i < d; i++) {
      if (before.matrix[old * d + i] !== after.matrix[row * d + i]) {
        changed.push(id);
        return;
      }
    }
  });
  return changed;
}

/** Every row scored: exact search, as it has always been. */
function exactView(m: VectorMatrix, vector: Float32Array): MeaningView {
  const scores = scoreAll(m, vector);
  return {
    index: 'exact',
    nearest: (limit, min) => {
      const rows: number[] = [];
      for (let row = 0; row < scores.length; row++) if ((scores[row] as number) >= min) rows.push(row);
      rows.sort((a, b) => (scores[b] as number) - (scores[a] as number));
      return rows.slice(0, limit).map((row) => ({ id: m.ids[row] as string, similarity: scores[row] as number }));
    },
    of: (id) => {
      const row = m.rowOf.get(id);
      return row === undefined ? undefined : Math.max(0, scores[row] as number);
    },
  };
}
