import type { VectorSettings } from '../../config.js';
import type { EmbeddingProvider } from '../../providers/index.js';
import type { VectorKind, VectorStore } from '../../store/vector-store.js';
import { VectorBudget } from '../vectors/budget.js';
import { HeldVectors, type MeaningView, type VectorIndexKind } from '../vectors/held.js';
import { HnswIndex } from '../vectors/hnsw.js';
import { matrixBytes, matrixOf } from '../vectors/matrix.js';

export type { MeaningView, VectorIndexKind } from '../vectors/held.js';

export const VECTOR_DEFAULTS: VectorSettings = { index: 'auto', cacheMb: 512, exactMax: 20_000 };

/** What /metrics reports of the vectors held. */
export interface VectorStatus {
  bytes: number;
  brains: number;
  builds: number;
}

const QUERY_CACHE_SIZE = 1000;
/** How long a brain's matrix is trusted before its stamp is checked again (other instances' writes). */
const STAMP_TTL_MS = 1000;
/**
 * A brain's first index is awaited by its search up to this many vectors (about a second to
 * build), so it answers through the index from its first search; larger brains are searched
 * exactly until their index is ready.
 */
const AWAIT_BUILD_MAX = 20_000;
/** How long after a failed build the next is tried (exact search, or the older index, answers meanwhile). */
const RETRY_BUILD_MS = 60_000;

/**
 * Vector search in process, on both stores (docs/decisions.md, "Vectors at scale"): a brain's
 * vectors of a kind (snapshots, memories) are read into one Float32Array and kept, under one
 * memory budget for every brain, until their stamp (count and a write counter) changes. Brains up
 * to VECTOR_EXACT_MAX vectors are searched exactly (one pass of dot products); larger ones through
 * an HNSW index built in a worker thread, the vectors written since it was built searched exactly.
 */
export class SemanticIndex {
  private readonly held: VectorBudget<HeldVectors>;
  private readonly queries = new Map<string, Float32Array>();
  /** One build at a time, whatever the number of brains: builds use all but one core. */
  private buildQueue: Promise<unknown> = Promise.resolve();
  private builds = 0;
  /** How the provider's last call went, for /readyz. */
  providerState: 'ok' | 'unavailable' | 'not called yet' = 'not called yet';

  constructor(
    readonly provider: EmbeddingProvider,
    private readonly store: VectorStore,
    private readonly now: () => number,
    readonly settings: VectorSettings = VECTOR_DEFAULTS,
  ) {
    this.held = new VectorBudget(settings.cacheMb * 1024 * 1024);
  }

  /** How the query relates to the brain's snapshots (or memories) by meaning; calls the provider for new queries. */
  async view(brainId: string, query: string, kind: VectorKind = 'snapshot'): Promise<MeaningView> {
    const [vector, brain] = await Promise.all([this.queryVector(query), this.brainVectors(kind, brainId)]);
    return brain.view(vector);
  }

  /**
   * The snapshots of the brain nearest in meaning to one of its own (by its stored vector; no
   * provider call), most similar first, from `min` up; none while it has no vector.
   */
  async neighboursOf(brainId: string, snapshotId: string, limit: number, min: number) {
    return (await this.brainVectors('snapshot', brainId)).neighboursOf(snapshotId, limit, min);
  }

  /** This process wrote vectors of a kind in these brains: check their stamp next time (others within a second). */
  forget(kind: VectorKind, brainIds: Iterable<string>): void {
    for (const id of brainIds) {
      const kept = this.held.peek(`${kind}:${id}`);
      if (kept) kept.checkedAt = Number.NEGATIVE_INFINITY;
    }
  }

  /** The vectors' memory in use, the brains held and the index builds so far (/metrics). */
  status(): VectorStatus {
    const brains = new Set([...this.held.keys()].map((key) => key.slice(key.indexOf(':') + 1)));
    return { bytes: this.held.bytes(), brains: brains.size, builds: this.builds };
  }

  /** Which search a brain of `count` vectors gets. */
  indexFor(count: number): VectorIndexKind {
    if (this.settings.index !== 'auto') return this.settings.index;
    return count > this.settings.exactMax ? 'hnsw' : 'exact';
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

  private async brainVectors(kind: VectorKind, brainId: string): Promise<HeldVectors> {
    const model = this.provider.model;
    const key = `${kind}:${brainId}`;
    const kept = this.held.get(key);
    const now = this.now();
    if (kept && now - kept.checkedAt < STAMP_TTL_MS) return this.indexed(key, kept);
    const stamp = await this.store.vectorStamp(kind, brainId, model);
    if (kept && kept.stamp === stamp) {
      kept.checkedAt = now;
      return this.indexed(key, kept);
    }
    const vectors = matrixOf(await this.store.vectorsOf(kind, brainId, model));
    // Another search of the brain may have read it meanwhile: keep one entry (and its index).
    const current = this.held.get(key) ?? kept;
    let entry: HeldVectors;
    if (current) {
      entry = current;
      entry.replace(stamp, now, vectors);
    } else entry = new HeldVectors(stamp, now, vectors);
    // Past the budget the least recently searched brains go; one larger than all of it is
    // searched exactly from what was just read and not kept.
    this.held.put(key, entry);
    return this.indexed(key, entry);
  }

  /** The entry, its index dropped or (re)built as its size and VECTOR_INDEX say. */
  private async indexed(key: string, entry: HeldVectors): Promise<HeldVectors> {
    const count = entry.vectors.ids.length;
    // Nothing to index in a brain without vectors; a brain not held is searched and let go.
    if (count === 0 || this.indexFor(count) === 'exact' || !this.held.holds(key, entry)) {
      if (entry.index) entry.attach(undefined, undefined);
      return entry;
    }
    if (!entry.stale() || entry.building) return entry;
    // A build that failed is tried again a while later, not on every search.
    if (performance.now() - entry.failedAt < RETRY_BUILD_MS) return entry;
    // A rebuild waits as long as the last one took: a brain written to all the time spends at
    // most half the build worker's time on itself, its new vectors searched exactly meanwhile.
    if (entry.index && performance.now() - entry.builtAt < entry.lastBuildMs) return entry;
    const build = this.build(key, entry);
    if (!entry.index && count <= AWAIT_BUILD_MAX) await build;
    return entry;
  }

  private build(key: string, entry: HeldVectors): Promise<void> {
    const run = async () => {
      // Evicted while waiting for its turn: nothing to build for.
      if (!this.held.holds(key, entry)) return;
      // The matrix as it is when the build starts: later changes are searched beside the index.
      const { vectors, stamp } = entry;
      const started = performance.now();
      entry.buildStarted();
      const index = await HnswIndex.build(vectors);
      this.builds++;
      entry.builtAt = performance.now();
      entry.lastBuildMs = entry.builtAt - started;
      // An index that would not fit the budget beside its vectors is let go: exact search answers.
      if (!this.held.holds(key, entry) || matrixBytes(entry.vectors) + index.bytes > this.held.budgetBytes) {
        entry.buildDropped();
        return;
      }
      entry.attach(index, stamp);
      this.held.fit(key);
    };
    const done = this.buildQueue.then(run);
    entry.building = done
      .catch(() => {
        entry.failedAt = performance.now();
        entry.buildDropped();
        // A failed build leaves the exact search (or the older index) answering; the next search tries again.
      })
      .finally(() => {
        entry.building = undefined;
      });
    this.buildQueue = entry.building;
    return entry.building;
  }
}
