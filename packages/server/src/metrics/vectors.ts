import { Gauge, type Registry } from 'prom-client';
import type { VectorStatus } from '../domain/search/semantic.js';

export type { VectorStatus };

/** Vectors at scale (design §20), zeros without embeddings: the memory they hold under VECTOR_CACHE_MB, the brains held, the index builds. */
export function vectorMetrics(registry: Registry, status: () => VectorStatus | undefined): void {
  const gauge = (name: string, help: string, read: (s: VectorStatus) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const s = status();
        this.set(s ? read(s) : 0);
      },
    });
  gauge(
    'snapgraph_vector_memory_bytes',
    'Memory held by vectors and their indexes in this process (bounded by VECTOR_CACHE_MB)',
    (s) => s.bytes,
  );
  gauge('snapgraph_vector_brains_held', 'Brains whose vectors this process holds in memory', (s) => s.brains);
  gauge(
    'snapgraph_vector_index_builds',
    'Approximate (HNSW) vector indexes built by this process since it started',
    (s) => s.builds,
  );
}
