/**
 * Request and response types, read from the generated `paths` of the server's OpenAPI
 * document by path and method (never by component name: those names are the generator's).
 */
import type { paths } from './generated/openapi.js';

export type { paths };
export type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** The operation object of a path and method; `never` when the path has no such method. */
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** Paths that answer this method. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: [Operation<P, M>] extends [never] ? never : P;
}[keyof paths];

type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type SuccessStatus = 200 | 201 | 202;

/** The JSON body the operation answers with this status (201 and 202 of a route that can run as a job differ). */
export type ResponseAt<P extends keyof paths, M extends Method, S extends SuccessStatus> =
  Operation<P, M> extends { responses: infer R } ? (S extends keyof R ? JsonContent<R[S]> : never) : never;

/** The JSON body of the operation's success response(s). */
export type ResponseBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R } ? JsonContent<R[Extract<keyof R, SuccessStatus>]> : never;

/** The JSON request body, or `never` when the operation takes none. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;

/**
 * Query parameters that have a server-side default are optional to the caller: the server
 * fills them in. (The document marks some of them required; once it no longer does, this is
 * a no-op.)
 */
type Defaulted = 'limit' | 'offset' | 'min_strength' | 'graph' | 'explain';
type DefaultsOptional<Q> = Omit<Q, Defaulted> & Partial<Pick<Q, Extract<keyof Q, Defaulted>>>;

export type QueryParams<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } }
    ? [NonNullable<Q>] extends [never]
      ? never
      : DefaultsOptional<NonNullable<Q>>
    : never;

/** Options every call takes. */
export interface CallOptions {
  /** Cancels the request and any wait before a retry; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra request headers (for example `Idempotency-Key` or `Prefer`). */
  headers?: Record<string, string>;
}

/** Options of every POST: the call may carry an `Idempotency-Key` (design §3.8). */
export interface WriteOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key`: the same key and body within 24 hours answers the first response
   * again without doing the work twice; the same key with another body is a 409. Reuse one key
   * across your own retries of one operation (after a timeout or a network error). The client
   * generates none by default: its own 429 retries are safe without one.
   */
  idempotencyKey?: string;
}

/** Options of a POST that can run as a job (`Prefer: respond-async`). */
export interface JobCapableOptions extends WriteOptions {
  /** Run as a job: the call answers `{ job_id, status }` at once; follow it with `waitForJob`. */
  async?: boolean;
}

/** The generic call of `SnapgraphClient.request`: path parameters, query and body by path. */
export interface CallInit<P extends keyof paths, M extends Method> extends CallOptions {
  /** Values for the `{name}` segments of the path. */
  params?: Record<string, string>;
  query?: QueryParams<P, M>;
  body?: RequestBody<P, M>;
}

// The resources, as the server describes them.
export type Snapshot = ResponseBody<'/v1/snapshots/{id}', 'get'>['data'];
export type SnapshotCreate = RequestBody<'/v1/snapshots', 'post'>;
export type SnapshotUpdate = RequestBody<'/v1/snapshots/{id}', 'put'>;
export type SnapshotListQuery = QueryParams<'/v1/snapshots', 'get'>;
export type SnapshotPage = ResponseBody<'/v1/snapshots', 'get'>;
export type SearchQuery = QueryParams<'/v1/snapshots/search', 'get'>;
export type SearchPage = ResponseBody<'/v1/snapshots/search', 'get'>;
export type SearchResult = SearchPage['data'][number];
export type SuggestionQuery = QueryParams<'/v1/snapshots/{id}/suggestions', 'get'>;
export type SuggestionList = ResponseBody<'/v1/snapshots/{id}/suggestions', 'get'>;
export type Suggestion = SuggestionList['data'][number];
export type Edge = ResponseBody<'/v1/edges/{id}', 'get'>['data'];
export type EdgeCreate = RequestBody<'/v1/edges', 'post'>;
export type EdgeUpdate = RequestBody<'/v1/edges/{id}', 'put'>;
export type EdgeListQuery = QueryParams<'/v1/edges', 'get'>;
export type EdgePage = ResponseBody<'/v1/edges', 'get'>;
export type Brain = ResponseBody<'/v1/brains/{id}', 'get'>['data'];
export type BrainCreate = RequestBody<'/v1/brains', 'post'>;
export type BrainUpdate = RequestBody<'/v1/brains/{id}', 'put'>;
export type BrainListQuery = QueryParams<'/v1/brains', 'get'>;
export type BrainPage = ResponseBody<'/v1/brains', 'get'>;
export type Health = ResponseBody<'/healthz', 'get'>;
export type Readiness = ResponseBody<'/readyz', 'get'>;

// Export (design §15.1): the NDJSON file of GET /v1/brains/{id}/export, a line at a time.
/** The first line of an export file. */
export interface ExportHeader {
  format: 'snapgraph-export';
  version: number;
  exported_at: string;
  brain_id: string;
  /** The kinds of record the file may hold, in order. */
  sections: string[];
}
/** A record: `kind` is one of the header's `sections` (`brain`, `snapshot`, `edge`, `tombstone`, `memory`, …). */
export interface ExportRecord {
  kind: string;
  data: Record<string, unknown>;
}
/** The last line: how many records of each kind came before it. */
export interface ExportEnd {
  kind: 'end';
  counts: Record<string, number>;
}
export type ExportLine = ExportHeader | ExportRecord | ExportEnd;

// Jobs (design §14).
export type Job = ResponseBody<'/v1/jobs/{id}', 'get'>['data'];
export type JobStatus = Job['status'];
/** The 202 of a call made with `{ async: true }`: the queued job's id and status. */
export type JobAccepted = ResponseAt<'/v1/crystallize', 'post', 202>['data'];

// Crystallize and captures (design §11).
export type CrystallizeRequest = RequestBody<'/v1/crystallize', 'post'>;
export type CrystallizeResult = ResponseAt<'/v1/crystallize', 'post', 201>;
export type CrystallizeRun = ResponseBody<'/v1/crystallize/{run_id}', 'get'>['data'];
export type CaptureListQuery = QueryParams<'/v1/captures', 'get'>;
export type CapturePage = ResponseBody<'/v1/captures', 'get'>;
export type Capture = CapturePage['data'][number];

// Specific knowledge (design §13).
export type KnowledgeIngestRequest = RequestBody<'/v1/specific-knowledge/ingest', 'post'>;
export type KnowledgeIngestResult = ResponseAt<'/v1/specific-knowledge/ingest', 'post', 201>;
export type KnowledgeSearchRequest = RequestBody<'/v1/specific-knowledge/search', 'post'>;
export type KnowledgeSearchResults = ResponseBody<'/v1/specific-knowledge/search', 'post'>;
export type KnowledgeSearchResult = KnowledgeSearchResults['data'][number];
export type KnowledgeSourceListQuery = QueryParams<'/v1/specific-knowledge/sources', 'get'>;
export type KnowledgeSourcePage = ResponseBody<'/v1/specific-knowledge/sources', 'get'>;
export type KnowledgeSource = KnowledgeSourcePage['data'][number];
/** A source with its entries, as `GET …/sources/{id}` answers it. */
export type KnowledgeSourceWithEntries = ResponseBody<'/v1/specific-knowledge/sources/{id}', 'get'>['data'];
export type KnowledgeEntry = ResponseBody<'/v1/specific-knowledge/entries/{id}', 'get'>['data'];
export type KnowledgeEntryUpdate = RequestBody<'/v1/specific-knowledge/entries/{id}', 'put'>;

// Memories (design §12).
export type Memory = ResponseBody<'/v1/memories/{id}', 'get'>['data'];
export type MemoryType = Memory['memory_type'];
export type MemoryCreate = RequestBody<'/v1/memories', 'post'>;
export type MemoryUpdate = RequestBody<'/v1/memories/{id}', 'put'>;
export type MemoryListQuery = QueryParams<'/v1/memories', 'get'>;
export type MemoryPage = ResponseBody<'/v1/memories', 'get'>;
export type MemorySearchRequest = RequestBody<'/v1/memories/search', 'post'>;
export type MemorySearchResults = ResponseBody<'/v1/memories/search', 'post'>;
export type MemorySearchResult = MemorySearchResults['data'][number];
export type MemoryPromoteRequest = RequestBody<'/v1/memories/{id}/promote', 'post'>;
/** The memory and the snapshots it became (201 the first time, 200 with the same snapshots after). */
export type MemoryPromoted = ResponseBody<'/v1/memories/{id}/promote', 'post'>['data'];

// Text ingestion (design §13.3).
export type IngestRequest = RequestBody<'/v1/ingest', 'post'>;
export type IngestResult = ResponseAt<'/v1/ingest', 'post', 201>;

// Import over HTTP and the jobs list (design §14.3).
export type JobListQuery = QueryParams<'/v1/jobs', 'get'>;
export type JobPage = ResponseBody<'/v1/jobs', 'get'>;
/** The 202 of `brains.import`: the queued job as `jobs.get` shows it, its id also as `job_id`. */
export type ImportAccepted = ResponseAt<'/v1/brains/import', 'post', 202>['data'];
/** The `result` of a succeeded import job. */
export interface ImportResult {
  /** The brain the records went to: the file's own (ids kept), a new one (ids taken here), or the one named. */
  brain_id: string;
  /** Records in the file, by kind (`brain`, `snapshot`, `edge`, …). */
  counts: Record<string, number>;
}
/** An export file to import: its text, its bytes, or a Blob (in Node, `fs.openAsBlob(path)` reads from disk as it sends). */
export type ImportFile = string | Uint8Array | ArrayBuffer | Blob;
export interface ImportOptions extends WriteOptions {
  /** `jsonl` (NDJSON, the default) or `graphml`. */
  format?: 'jsonl' | 'graphml';
  /** Import into this existing brain of yours, under new ids, instead of creating the file's brain. */
  brainId?: string;
}
