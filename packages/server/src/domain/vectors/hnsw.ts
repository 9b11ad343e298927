import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Index as UsearchIndex } from 'usearch';
import type { VectorMatrix } from './matrix.js';

const require = createRequire(import.meta.url);
const USEARCH = require.resolve('usearch');

/**
 * The graph's shape (docs/decisions.md, "Vectors at scale"): 16 links a node, 128 candidates
 * while adding, and vectors held as 8-bit integers inside the index. The index only proposes
 * candidates; their similarities are computed again from the float32 rows (`OVERSAMPLE` times
 * the number asked for, at least 200: held.ts), which measured a recall@10 of 1.0 against exact
 * search where the 8-bit index alone gave 0.96.
 */
export const HNSW_SETTINGS = {
  metric: 'cos',
  quantization: 'i8',
  connectivity: 16,
  expansion_add: 128,
  expansion_search: 64,
  multi: false,
} as const;
export const OVERSAMPLE = 3;

/**
 * Builds the graph in a worker thread (never on the event loop), saves it to a temporary file and
 * returns; the caller maps the file. The worker is plain CommonJS given as code, so that it runs
 * the same from the compiled files and under tsx. It leaves one core to the requests.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const usearch = require(workerData.usearch);
const index = new usearch.Index({ dimensions: workerData.dimension, ...workerData.settings });
const keys = new BigUint64Array(workerData.count);
for (let i = 0; i < workerData.count; i++) keys[i] = BigInt(i);
if (workerData.count > 0) index.add(keys, new Float32Array(workerData.matrix), workerData.threads);
index.save(workerData.path);
parentPort.postMessage('built');
`;

/** An approximate (HNSW) index of a matrix as it was when built: keys are that matrix's rows. */
export class HnswIndex {
  private constructor(
    private readonly index: UsearchIndex,
    /** The ids of the matrix it was built from, by key. */
    readonly ids: string[],
    readonly idSet: Set<string>,
    /** The mapped file's size: what the index holds in memory. */
    readonly bytes: number,
  ) {}

  /** Builds the index of `m` off the event loop. */
  static async build(m: VectorMatrix): Promise<HnswIndex> {
    const dir = mkdtempSync(join(tmpdir(), 'snapgraph-hnsw-'));
    const path = join(dir, 'index.usearch');
    try {
      const shared = new SharedArrayBuffer(m.matrix.byteLength);
      new Float32Array(shared).set(m.matrix);
      await runWorker({
        usearch: USEARCH,
        settings: HNSW_SETTINGS,
        dimension: m.dimension,
        count: m.ids.length,
        matrix: shared,
        path,
        threads: Math.max(1, availableParallelism() - 1),
      });
      const { Index } = require('usearch') as { Index: typeof UsearchIndex };
      const index = new Index({ dimensions: m.dimension, ...HNSW_SETTINGS } as never);
      // Mapped, not read: no copy on the event loop. The mapping outlives the file's name.
      index.view(path);
      const bytes = statSync(path).size;
      return new HnswIndex(index, m.ids, new Set(m.ids), bytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The ids of about the `k` nearest to `vector`, nearest first (approximate). */
  search(vector: Float32Array, k: number): string[] {
    if (this.ids.length === 0) return [];
    const found = this.index.search(vector, Math.min(k, this.ids.length), 1);
    return Array.from(found.keys, (key) => this.ids[Number(key)] as string);
  }
}

function runWorker(workerData: Record<string, unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData });
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`HNSW build exited with ${code}`))));
  });
}
