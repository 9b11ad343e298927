import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { SnapgraphClient, SnapgraphError } from '../src/index.js';

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('when no answer comes', () => {
  it('a service that cannot be reached is a SnapgraphError NETWORK_ERROR with status 0 and the cause', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const sg = new SnapgraphClient({ baseUrl, apiKey: 'sg_any' });
    const err = await sg.snapshots.list().then(
      () => assert.fail('answered'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof SnapgraphError, String(err));
    assert.equal(err.status, 0);
    assert.equal(err.code, 'NETWORK_ERROR');
    assert.match(err.message, new RegExp(`${baseUrl.replace(/[.]/g, '\\.')} could not be reached \\(ECONNREFUSED\\)`));
    assert.ok(err.cause instanceof TypeError, 'fetch’s own error is kept');
    assert.equal(err.requestId, undefined);
  });

  it('a connection cut before the answer is read is one too', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":');
      setTimeout(() => res.destroy(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sg = new SnapgraphClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'sg_any' });
    await assert.rejects(sg.snapshots.list(), { name: 'SnapgraphError', code: 'NETWORK_ERROR', status: 0 });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('an abort is still the abort, not a network error', async () => {
    const sg = new SnapgraphClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'sg_any' });
    const reason = new Error('gave up');
    await assert.rejects(sg.snapshots.list({}, { signal: AbortSignal.abort(reason) }), reason);
  });
});
