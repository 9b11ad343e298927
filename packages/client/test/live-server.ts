import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { SnapgraphClient } from '../src/index.js';
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

/** What a suite of client tests shares: the live server, a client on a fresh key, its calls. */
export interface ClientSuite {
  readonly server: LiveServer;
  readonly sg: SnapgraphClient;
  /** Every request the client sent, as `METHOD url`. */
  readonly calls: string[];
  /** A new brain of the key's account; its id. */
  newBrain(name: string): Promise<string>;
}

/** Starts a live server and a counting client before the suite, and closes it after. Call inside `describe`. */
export function clientSuite(): ClientSuite {
  let server: LiveServer | undefined;
  let sg: SnapgraphClient | undefined;
  const counting = countingFetch();
  before(async () => {
    server = await startLiveServer();
    const key = await server.newKey();
    sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, fetch: counting.fetch });
  });
  after(() => server?.close());
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('clientSuite: used before the suite started');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get sg() {
      return started(sg);
    },
    calls: counting.calls,
    newBrain: async (name) => (await started(sg).brains.create({ name })).id,
  };
}
