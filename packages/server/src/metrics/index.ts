import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { observeProviderCalls } from '../providers/call-observers.js';
import type { Store } from '../store/store.js';
import { QUEUE_DEPTHS } from './queue-depths.js';
import { vectorMetrics, type VectorStatus } from './vectors.js';

/** Request latency buckets, in seconds: from a cached read (under a millisecond) to a slow crystallize. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What the HTTP layer tells metrics: one answered request (route undefined when none matched). */
export type RequestObserver = (method: string, route: string | undefined, status: number, ms: number) => void;

export interface Metrics {
  readonly contentType: string;
  observeRequest: RequestObserver;
  /** A 429, by the rate-limit group that refused it (`anonymous`: per client address, without a valid key). */
  observeRefusal(group: string): void;
  /** The Prometheus text of everything, queue depths read now. */
  text(): Promise<string>;
  close(): void;
}

/**
 * Prometheus metrics (design §15.5, METRICS=true), with prom-client: requests by route and
 * status, their latency, rate-limit refusals by group, the depth of each queue, provider calls
 * by outcome, and the process's own (memory, CPU, event-loop lag). Each app has its own
 * registry, so two apps in one process (tests) never share counts.
 */
export function createMetrics(store: Store, vectors: () => VectorStatus | undefined = () => undefined): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'snapgraph_' });
  const requests = new Counter({
    name: 'snapgraph_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'snapgraph_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'snapgraph_rate_limit_refusals_total',
    help: 'Requests refused with 429, by rate-limit group (anonymous: requests without a valid key)',
    labelNames: ['group'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'snapgraph_queue_depth',
    help: 'Tasks waiting in each queue of background work',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const depths = await Promise.all(QUEUE_DEPTHS.map((q) => q.read(store).catch(() => Number.NaN)));
      QUEUE_DEPTHS.forEach((q, i) => this.set({ queue: q.queue }, depths[i] as number));
    },
  });
  if (store.search.textIndexStatus) {
    const status = () => store.search.textIndexStatus?.() ?? { ready: false, documents: 0, builds: 0 };
    new Gauge({
      name: 'snapgraph_search_text_index_ready',
      help: '1 when searches of plain words are ranked by the in-memory text index (SQLite), 0 while it is built (FTS5 answers)',
      registers: [registry],
      collect() {
        this.set(status().ready ? 1 : 0);
      },
    });
    new Gauge({
      name: 'snapgraph_search_text_index_documents',
      help: 'Snapshots held by the in-memory text index (SQLite)',
      registers: [registry],
      collect() {
        this.set(status().documents);
      },
    });
    new Gauge({
      name: 'snapgraph_search_text_index_builds',
      help: 'Times the in-memory text index (SQLite) was built from FTS5 since the process started',
      registers: [registry],
      collect() {
        this.set(status().builds);
      },
    });
  }
  vectorMetrics(registry, vectors);
  const providerCalls = new Counter({
    name: 'snapgraph_provider_calls_total',
    help: 'Calls to LLM and embeddings providers, by service and outcome (ok, unavailable, error, cancelled)',
    labelNames: ['service', 'outcome'] as const,
    registers: [registry],
  });
  const providerLatency = new Histogram({
    name: 'snapgraph_provider_call_duration_seconds',
    help: 'Time a provider call took, by service',
    labelNames: ['service'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const stopObserving = observeProviderCalls((call) => {
    providerCalls.inc({ service: call.service, outcome: call.outcome });
    providerLatency.observe({ service: call.service }, call.seconds);
  });

  return {
    contentType: registry.contentType,
    observeRequest(method, route, status, ms) {
      // Unmatched paths share one label, so scanners cannot grow the series without bound.
      const labels = { method, route: route ?? 'unmatched', status: String(status) };
      requests.inc(labels);
      latency.observe(labels, ms / 1000);
    },
    observeRefusal: (group) => refusals.inc({ group }),
    text: () => registry.metrics(),
    close: stopObserving,
  };
}
