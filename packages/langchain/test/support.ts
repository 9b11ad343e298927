import { after, before } from 'node:test';
import { SnapgraphClient } from '@snapgraph/client';
import { startLiveServer, type LiveServer, type TestKey } from '../../client/test/live-server.js';

export { startLiveServer, type LiveServer, type TestKey };

/** What a suite shares: a real Snapgraph server on a loopback port, a key and a client on it. */
export interface Live {
  readonly server: LiveServer;
  readonly key: TestKey;
  readonly client: SnapgraphClient;
}

/** Starts a live server with a fresh key before the suite, closes it after. Call inside `describe`. */
export function liveSuite(): Live {
  let state: Live | undefined;
  before(async () => {
    const server = await startLiveServer();
    const key = await server.newKey();
    // The search cache off: each test reads what the previous one wrote.
    const client = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, searchCache: false });
    state = { server, key, client };
  });
  after(() => state?.server.close());
  const started = (): Live => {
    if (!state) throw new Error('liveSuite: used before the suite started');
    return state;
  };
  return {
    get server() {
      return started().server;
    },
    get key() {
      return started().key;
    },
    get client() {
      return started().client;
    },
  };
}
