import {
  ProviderError,
  redactSecret,
  type ProviderErrorOptions,
  type ProviderFailureKind,
  type ProviderService,
} from './errors.js';
import { parseRetryAfter } from './retry-after.js';
import { reportProviderCall } from './call-observers.js';

/**
 * One POST of JSON to an OpenAI-compatible endpoint, with every way it can fail turned into a
 * ProviderError. Plain `fetch` rather than the `openai` package: the two endpoints we use are
 * one JSON POST each, and owning the call keeps the timeout, the retry decision (which the
 * package would otherwise make by itself, twice by default) and the error mapping in one place.
 */
export interface PostJsonRequest {
  service: ProviderService;
  /** The full endpoint, e.g. `https://api.openai.com/v1/embeddings`. */
  url: string;
  apiKey: string | undefined;
  body: unknown;
  timeoutMs: number;
  /** The caller's cancellation (a shutdown, a client gone): rethrown as is, not a provider failure. */
  signal?: AbortSignal | undefined;
}

/** The provider's error text quoted in messages is cut here: enough to say what went wrong. */
const QUOTE_LIMIT = 300;

/** Resolves to the parsed JSON of a 2xx answer; rejects with a ProviderError (or the caller's abort reason). */
export async function postJson(request: PostJsonRequest): Promise<unknown> {
  const started = performance.now();
  const report = (outcome: 'ok' | 'unavailable' | 'error' | 'cancelled') =>
    reportProviderCall({ service: request.service, outcome, seconds: (performance.now() - started) / 1000 });
  try {
    const answer = await post(request);
    report('ok');
    return answer;
  } catch (err) {
    report(err instanceof ProviderError ? err.kind : 'cancelled');
    throw err;
  }
}

async function post(request: PostJsonRequest): Promise<unknown> {
  const { service, apiKey, timeoutMs, signal: callerSignal } = request;
  const fail = (kind: ProviderFailureKind, message: string, extra: Omit<ProviderErrorOptions, 'service'> = {}) =>
    new ProviderError(kind, redactSecret(`${service} provider ${message}`, apiKey), { service, ...extra });

  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? AbortSignal.any([timeout, callerSignal]) : timeout;
  // Both the answer's arrival and the reading of its body fall under the one deadline.
  const failure = (err: unknown, what: string): unknown => {
    if (callerSignal?.aborted) return callerSignal.reason;
    if (timeout.aborted) return fail('unavailable', `did not answer within ${timeoutMs} ms`, { cause: err });
    return fail('unavailable', `${what} (${networkReason(err)})`, { cause: err });
  };

  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify(request.body),
      // A redirect of a POST would be replayed as a GET, and could carry the key elsewhere.
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    throw failure(err, 'could not be reached');
  }

  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    throw failure(err, 'broke off its answer');
  }

  const { status } = response;
  if (status === 429 || status >= 500) {
    const retryAfterSeconds =
      status === 429 || status === 503 ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
    throw fail('unavailable', `answered ${status}${quote(text)}`, { status, retryAfterSeconds });
  }
  if (status >= 300 && status < 400) {
    throw fail(
      'error',
      `answered ${status} (a redirect to ${response.headers.get('location') ?? 'nowhere'}): set its base URL to the final address`,
      { status },
    );
  }
  if (status < 200 || status >= 300)
    throw fail('error', `refused the request with ${status}${quote(text)}`, { status });
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw fail('error', `answered ${status} with a body that is not JSON${quote(text)}`, { status, cause: err });
  }
}

/** Node's fetch hides the socket's error code (ECONNREFUSED, ECONNRESET) in `cause`. */
function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** OpenAI-style `{ error: { message } }` when there is one, else the start of the body. */
function quote(body: string): string {
  let message = body.trim();
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const inner = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof inner === 'string') message = inner;
  } catch {
    // Not JSON: quote the text itself.
  }
  if (message === '') return '';
  return `: ${message.length > QUOTE_LIMIT ? `${message.slice(0, QUOTE_LIMIT)}…` : message}`;
}
