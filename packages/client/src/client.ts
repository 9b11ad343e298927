import { Brains } from './resources/brains.js';
import { Captures } from './resources/captures.js';
import { Crystallize } from './resources/crystallize.js';
import { Edges } from './resources/edges.js';
import { Jobs, type SucceededJob, type WaitOptions } from './resources/jobs.js';
import { Knowledge } from './resources/knowledge.js';
import { Memories } from './resources/memories.js';
import { Snapshots } from './resources/snapshots.js';
import { Transport, type ClientOptions } from './transport.js';
import type {
  CallInit,
  CallOptions,
  Health,
  IngestRequest,
  IngestResult,
  JobAccepted,
  JobCapableOptions,
  Method,
  PathsWith,
  Readiness,
  ResponseBody,
  WriteOptions,
} from './types.js';

/**
 * The Snapgraph API from code:
 *
 * ```ts
 * const sg = new SnapgraphClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.SNAPGRAPH_API_KEY! });
 * const snap = await sg.snapshots.create({ name: 'Compounding', core: 'Small gains compound' });
 * ```
 *
 * A new capability is one class in `resources/` given the transport, and one field here.
 */
export class SnapgraphClient {
  readonly snapshots: Snapshots;
  readonly edges: Edges;
  readonly brains: Brains;
  readonly crystallize: Crystallize;
  readonly captures: Captures;
  readonly knowledge: Knowledge;
  readonly memories: Memories;
  readonly jobs: Jobs;
  private readonly http: Transport;

  constructor(options: ClientOptions) {
    this.http = new Transport(options);
    this.snapshots = new Snapshots(this.http);
    this.edges = new Edges(this.http);
    this.brains = new Brains(this.http);
    this.crystallize = new Crystallize(this.http);
    this.captures = new Captures(this.http);
    this.knowledge = new Knowledge(this.http);
    this.memories = new Memories(this.http);
    this.jobs = new Jobs(this.http);
  }

  /**
   * Waits for a job started with `{ async: true }` (polling every `pollMs`, default 1 s) and
   * resolves with it once it succeeded, `result` typed as `R`; a failed job rejects with the
   * error the synchronous call would have thrown.
   *
   * ```ts
   * const { job_id } = await sg.crystallize.text({ text }, { async: true });
   * const { result } = await sg.waitForJob<CrystallizeResult>(job_id);
   * ```
   */
  waitForJob<R = unknown>(id: string, options: WaitOptions = {}): Promise<SucceededJob<R>> {
    return this.jobs.wait<R>(id, options);
  }

  /**
   * `POST /v1/ingest`: text in, linked snapshots out, and with `extract_memories: true` the
   * memories it holds. With `{ async: true }` it runs as a job: `{ job_id, status }` now, this
   * call's result from `waitForJob<IngestResult>(job_id)`.
   */
  ingest(body: IngestRequest, options: JobCapableOptions & { async: true }): Promise<JobAccepted>;
  ingest(body: IngestRequest, options?: WriteOptions & { async?: false }): Promise<IngestResult>;
  async ingest(body: IngestRequest, options: JobCapableOptions = {}): Promise<IngestResult | JobAccepted> {
    const res = await this.http.request<IngestResult | { data: JobAccepted }>({
      method: 'POST',
      path: '/v1/ingest',
      body,
      ...options,
    });
    return options.async ? (res as { data: JobAccepted }).data : (res as IngestResult);
  }

  /** Liveness: `{ status: 'ok' }` while the process answers. */
  health(options: CallOptions = {}): Promise<Health> {
    return this.http.request({ method: 'GET', path: '/healthz', ...options });
  }

  /** Readiness and its checks; a 503 (draining, database down) is answered, not thrown. */
  ready(options: CallOptions = {}): Promise<Readiness> {
    return this.http.request({ method: 'GET', path: '/readyz', acceptStatuses: [503], ...options });
  }

  /**
   * Any operation of the OpenAPI document, typed by its path and method: for endpoints that
   * have no method of their own yet.
   *
   * ```ts
   * const page = await sg.request('get', '/v1/snapshots', { query: { limit: 10 } });
   * ```
   */
  request<M extends Method, P extends PathsWith<M>>(
    method: M,
    path: P,
    init: CallInit<P, M> = {},
  ): Promise<ResponseBody<P, M>> {
    const { params, query, body, ...options } = init;
    return this.http.request({
      method: method.toUpperCase(),
      path,
      params,
      query: query as object | undefined,
      body,
      ...options,
    });
  }

  /** Forgets every cached search answer. */
  clearSearchCache(): void {
    this.http.cache?.clear();
  }
}
