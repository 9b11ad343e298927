import type { AddressInfo } from 'node:net';
import { startTestApi, type TestApi, type TestApiOptions, type TestKey } from '../../server/test/helpers/harness.js';

export type { TestKey };

/**
 * The real Snapgraph server, built from the server package on a fresh database (SQLite, or
 * PostgreSQL with SNAPGRAPH_TEST_BACKEND=postgres) and listening on a loopback port, so the
 * client talks to it through real fetch calls.
 */
export interface LiveServer {
  api: TestApi;
  baseUrl: string;
  newKey: TestApi['newKey'];
  close(): Promise<void>;
}

export async function startLiveServer(options: TestApiOptions = {}): Promise<LiveServer> {
  const api = await startTestApi(options);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as AddressInfo;
  return { api, baseUrl: `http://127.0.0.1:${port}`, newKey: api.newKey, close: () => api.close() };
}

/** A fetch that counts the requests it sends (to see what the search cache saved). */
export function countingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return fetch(input, init);
    },
  };
}
