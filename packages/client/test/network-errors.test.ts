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

  /** A server that sends `status` and the start of a body, then cuts the connection. */
  async function cuttingServer(status: number): Promise<{ baseUrl: string; close(): Promise<void> }> {
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":');
      setTimeout(() => res.destroy(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('an answer cut while it is read is NETWORK_ERROR with the status it came with', async () => {
    const server = await cuttingServer(200);
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: 'sg_any' });
    await assert.rejects(sg.snapshots.list(), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.code, 'NETWORK_ERROR');
      assert.equal(err.status, 200);
      assert.match(err.message, /\(200\) was cut off/);
      return true;
    });
    await server.close();
  });

  it('an error answer whose body is cut is still that error, with its status', async () => {
    const server = await cuttingServer(503);
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: 'sg_any' });
    await assert.rejects(sg.snapshots.list(), { name: 'SnapgraphError', code: 'HTTP_503', status: 503 });
    await server.close();
  });

  it('what fails before anything is sent, or in a fetch of the caller’s, is thrown as it is', async () => {
    const port = await closedPort();
    const failing = new SnapgraphClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'sg_any',
      fetch: () => Promise.reject(new RangeError('my fetch broke')),
    });
    await assert.rejects(failing.snapshots.list(), { name: 'RangeError', message: 'my fetch broke' });
    const badHeader = new SnapgraphClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'sg_any',
      headers: { 'x-note': 'line\nbreak' },
    });
    await assert.rejects(badHeader.snapshots.list(), (err: unknown) => !(err instanceof SnapgraphError));
  });

  it('an abort is still the abort, not a network error', async () => {
    const sg = new SnapgraphClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'sg_any' });
    const reason = new Error('gave up');
    await assert.rejects(sg.snapshots.list({}, { signal: AbortSignal.abort(reason) }), reason);
  });
});
