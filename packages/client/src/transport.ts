import { DEFAULT_RETRY, delayBeforeRetry, retryAfterMs, type RetryOptions } from './backoff.js';
import { errorFromResponse, isNetworkFailure, networkError } from './errors.js';
import { SearchCache, type SearchCacheOptions } from './search-cache.js';
import { realSleep, type Sleep } from './sleep.js';
import type { JobCapableOptions } from './types.js';

export interface ClientOptions {
  /** The service's address, without `/v1` (default `http://127.0.0.1:8080`). */
  baseUrl?: string;
  /** An `sg_…` API key, sent as `Authorization: Bearer …`. */
  apiKey: string;
  /** 429 handling (design §5.8); `false` throws the first 429 at once. */
  retry?: RetryOptions | false;
  /** The search cache (design §5.8: 30 to 60 s); `false` turns it off. */
  searchCache?: SearchCacheOptions | false;
  /** A fetch implementation (default: the global `fetch`). */
  fetch?: typeof fetch;
  /** How waits happen (default: timers); tests inject a recorder. */
  sleep?: Sleep;
  /** The clock of the search cache (default `Date.now`). */
  now?: () => number;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface TransportRequest extends JobCapableOptions {
  method: string;
  /** A path template as in the OpenAPI document, e.g. `/v1/snapshots/{id}`. */
  path: string;
  params?: Record<string, string> | undefined;
  query?: object | undefined;
  body?: unknown;
  /** A body that is a file, not JSON (an import), sent as it is with its media type. */
  upload?: { contentType: string; data: string | Uint8Array | ArrayBuffer | Blob } | undefined;
  /** Statuses besides 2xx whose body is an answer, not an error (readiness's 503). */
  acceptStatuses?: readonly number[];
  /** Serve from and fill the search cache. */
  cacheable?: boolean;
  /** With `cacheable`: skip a cached answer (the fresh one is still stored). */
  fresh?: boolean;
  /** A POST that only reads (knowledge search): it leaves the search cache alone. */
  readOnly?: boolean;
}

/**
 * The one place HTTP happens: URL building, the key, JSON in and out, errors as
 * SnapgraphError, 429 retries as design §5.8 says, and the search cache.
 */
export class Transport {
  readonly baseUrl: string;
  readonly cache: SearchCache | undefined;
  private readonly apiKey: string;
  private readonly retry: Required<RetryOptions>;
  private readonly fetchImpl: typeof fetch;
  /** How waits happen: 429 backoff and job polling. */
  readonly sleep: Sleep;
  private readonly now: () => number;
  private readonly headers: Record<string, string>;

  constructor(options: ClientOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('apiKey is required');
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.retry = options.retry === false ? { ...DEFAULT_RETRY, maxRetries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
    if (!(Number.isInteger(this.retry.maxRetries) && this.retry.maxRetries >= 0)) {
      throw new RangeError('retry.maxRetries must be a whole number, 0 or more');
    }
    // Looked up per call, not captured: a page may install its fetch after the client is made.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? (() => Date.now());
    this.headers = { ...options.headers };
    this.cache = options.searchCache === false ? undefined : new SearchCache(options.searchCache ?? {}, this.now);
  }

  url(path: string, params: Record<string, string> = {}, query: object = {}): string {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined || value === '') throw new TypeError(`missing path parameter ${name} for ${path}`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query) as [string, QueryValue][]) {
      if (value !== undefined && value !== null) search.append(name, String(value));
    }
    const text = search.toString();
    return `${this.baseUrl}${filled}${text ? `?${text}` : ''}`;
  }

  async request<T>(req: TransportRequest): Promise<T> {
    const url = this.url(req.path, req.params, req.query);
    const cache = req.cacheable ? this.cache : undefined;
    if (cache && !req.fresh) {
      const hit = cache.get<T>(url);
      if (hit !== undefined) return hit;
    }
    const body = await this.send<T>(url, req);
    if (cache) cache.set(url, body);
    // The caller's own writes must show in its next search, not 30 s later.
    else if (req.method !== 'GET' && req.method !== 'HEAD' && !req.readOnly) this.cache?.clear();
    return body;
  }

  /** The `data` of an answer shaped `{ data }`, as every route about one object answers. */
  async data<T>(req: TransportRequest): Promise<T> {
    return (await this.request<{ data: T }>(req)).data;
  }

  /**
   * The response of a request whose body is a file, not JSON (an export), for the caller to
   * read as it arrives; retries and errors as for any other request.
   */
  async open(req: TransportRequest & { accept: string }): Promise<Response> {
    return this.fetchAnswer(this.url(req.path, req.params, req.query), req, req.accept);
  }

  private async send<T>(url: string, req: TransportRequest): Promise<T> {
    const response = await this.fetchAnswer(url, req, 'application/json');
    return (await this.reached(() => readBody(response), req.signal, response.status)) as T;
  }

  /**
   * Network work whose network failure becomes a SnapgraphError `NETWORK_ERROR` (status 0, or
   * the status of an answer whose body was cut); an abort, or anything else, is thrown as it is.
   */
  private async reached<T>(work: () => Promise<T>, signal: AbortSignal | undefined, status = 0): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!failedOnNetwork(err, signal)) throw err;
      throw networkError(this.baseUrl, err, status);
    }
  }

  /** Sends the request, waits out 429s as design §5.8 says, and throws any other error as SnapgraphError. */
  private async fetchAnswer(url: string, req: TransportRequest, accept: string): Promise<Response> {
    const headers: Record<string, string> = {
      accept,
      ...this.headers,
      ...req.headers,
      authorization: `Bearer ${this.apiKey}`,
    };
    // The same key goes with every 429 retry of this call: the server checks it only for
    // admitted requests, so a retry is the first time it sees the key.
    if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
    if (req.async) headers.prefer = 'respond-async';
    const init: RequestInit = { method: req.method, headers };
    if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(req.body);
    } else if (req.upload !== undefined) {
      // Each of these can be sent again as it is: a 429 retry resends the whole file.
      headers['content-type'] = req.upload.contentType;
      init.body = req.upload.data as RequestInit['body'];
    }
    if (req.signal) init.signal = req.signal;

    for (let retry = 0; ; retry++) {
      req.signal?.throwIfAborted();
      const response = await this.reached(() => this.fetchImpl(url, init), req.signal);
      const retryAfter = retryAfterMs(response.headers.get('retry-after'), this.now());
      if (response.status === 429 && retry < this.retry.maxRetries) {
        // A refused request consumed nothing (design §5.4), so even a POST is safe to send again.
        await response.body?.cancel().catch(() => undefined);
        await this.sleep(delayBeforeRetry(retry, retryAfter, this.retry), req.signal);
        continue;
      }
      if (response.ok || req.acceptStatuses?.includes(response.status)) return response;
      const seconds = retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1_000);
      // An error whose body was cut is still that error: its status is known.
      const body = await readBody(response).catch((err: unknown) => {
        if (!failedOnNetwork(err, req.signal)) throw err;
        return undefined;
      });
      throw errorFromResponse(response.status, body, response.headers, seconds);
    }
  }
}

/** A network failure that is not the caller's abort (an abort is always thrown as it is). */
const failedOnNetwork = (err: unknown, signal: AbortSignal | undefined) => !signal?.aborted && isNetworkFailure(err);

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
