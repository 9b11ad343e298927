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

export type WaitListener = (seconds: number) => void;

/**
 * A client on this page's own server. Its fetch reports each 429 before the client waits it out,
 * so the page can say "waiting N s" instead of seeming to hang.
 */
export function createClient(apiKey: string, onRateLimited: WaitListener): SnapgraphClient {
  const reportingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 429) onRateLimited(retryAfterSeconds(response.headers.get('retry-after')));
    return response;
  };
  return new SnapgraphClient({
    baseUrl: window.location.origin,
    apiKey,
    fetch: reportingFetch,
    retry: { maxRetries: 2, initialDelayMs: 1_000, maxDelayMs: 30_000 },
  });
}

function retryAfterSeconds(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1;
}

/** One sentence for any failure of a call. */
export function describeError(err: unknown): string {
  if (err instanceof SnapgraphError) {
    if (err.status === 401)
      return 'That API key was not accepted (401). Check it, or create one with: npx snapgraph keys create --plan free';
    if (err.status === 403) return `This key may not do that (403): ${err.message}`;
    if (err.status === 429) {
      const wait = err.retryAfter;
      return `Too many requests (429): the rate limit is reached. Wait ${wait ?? 'a few'} seconds and try again.`;
    }
    if (err.status === 404) return `Not found (404): ${err.message}`;
    if (err.status >= 500) return `The server had a problem (${err.status}): ${err.message}`;
    return `${err.message} (${err.status})`;
  }
  if (err instanceof TypeError) return 'The server is not answering. Is it running? Start it with: npm start';
  if (err instanceof DOMException && err.name === 'AbortError') return 'Cancelled.';
  return err instanceof Error ? err.message : String(err);
}
