import { SnapgraphClient, SnapgraphError } from '@snapgraph/client';

/**
 * The API as the explorer uses it: the client package with the pasted key, and errors turned
 * into sentences a person can act on (a wrong key, a rate limit with its wait, a server down).
 */

const KEY_STORAGE = 'snapgraph.apiKey';

/** sessionStorage only: gone when the tab closes, never in the URL or a cookie. */
export const storedKey = {
  get: (): string => sessionStorage.getItem(KEY_STORAGE) ?? '',
  set: (key: string): void => sessionStorage.setItem(KEY_STORAGE, key),
  clear: (): void => sessionStorage.removeItem(KEY_STORAGE),
};

/** The wait in seconds before a 429's retry, or 0 once a request after it got through. */
export type WaitListener = (seconds: number) => void;

/**
 * A client on this page's own server. Its fetch reports each 429 before the client waits it out,
 * so the page can say "waiting N s" instead of seeming to hang, and reports 0 when the next answer
 * is not a 429.
 *
 * Someone is waiting on every call the page makes (a sign-in, a search, a save), so a 429 is
 * waited out up to 5 times, the client's default (design §5.8): with a few calls at once, a
 * burst window of one second refuses the last of them more than twice in a row. Each wait is the
 * server's Retry-After, at most a minute, so a call gives up after a few minutes at the most.
 */
export function createClient(apiKey: string, onRateLimited: WaitListener): SnapgraphClient {
  let waiting = false;
  const reportingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 429) {
      waiting = true;
      onRateLimited(retryAfterSeconds(response.headers.get('retry-after')));
    } else if (waiting) {
      waiting = false;
      onRateLimited(0);
    }
    return response;
  };
  return new SnapgraphClient({
    baseUrl: window.location.origin,
    apiKey,
    fetch: reportingFetch,
    retry: { maxRetries: 5, initialDelayMs: 1_000, maxDelayMs: 30_000 },
  });
}

function retryAfterSeconds(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1;
}

/** One sentence for any failure of a call. */
export function describeError(err: unknown): string {
  if (err instanceof SnapgraphError) {
    if (err.code === 'NETWORK_ERROR') return 'The server is not answering. Is it running? Start it with: npm start';
    if (err.status === 401)
      return 'That API key was not accepted (401). Check it, or create one with: npx snapgraph keys create';
    if (err.status === 403) return `This key may not do that (403): ${err.message}`;
    if (err.status === 429) {
      const wait = err.retryAfter;
      return `Too many requests (429): the rate limit is reached. Wait ${wait ?? 'a few'} seconds and try again.`;
    }
    if (err.status === 404) return `Not found (404): ${err.message}`;
    if (err.status >= 500) return `The server had a problem (${err.status}): ${err.message}`;
    return `${err.message} (${err.status})`;
  }
  if (err instanceof DOMException && err.name === 'AbortError') return 'Cancelled.';
  return err instanceof Error ? err.message : String(err);
}
