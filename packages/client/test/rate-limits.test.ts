import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SnapgraphClient, SnapgraphError, type Sleep } from '../src/index.js';
import { realSleep } from '../src/sleep.js';
import { startLiveServer, type LiveServer } from './live-server.js';

/** A sleep that records each wait and then really waits (or not, with `instant`). */
function recordingSleep(instant = false): { sleep: Sleep; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms, signal) => {
      waits.push(ms);
      return instant ? (signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve()) : realSleep(ms, signal);
    },
  };
}

describe('429 with a real Free key (search: 5 per second)', () => {
  let server: LiveServer;
  before(async () => {
    server = await startLiveServer({ rateLimits: true });
  });
  after(() => server.close());

  it('waits Retry-After and then succeeds', async () => {
    const key = await server.newKey({ plan: 'free' });
    const { sleep, waits } = recordingSleep();
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, searchCache: false, sleep });
    const started = Date.now();
    const pages = await Promise.all(Array.from({ length: 8 }, (_, i) => sg.snapshots.search({ q: `word${i}` })));
    assert.equal(pages.length, 8);
    // 8 at once against a burst of 5: some are refused (how many depends on how fast they land).
    assert.ok(waits.length >= 1, `waited ${JSON.stringify(waits)}`);
    // The server's Retry-After is whole seconds; its burst window is one second.
    for (const ms of waits) assert.equal(ms, 1_000);
    assert.ok(Date.now() - started >= 1_000);
  });

  it('with retries off, the 429 is a SnapgraphError carrying retry_after', async () => {
    const key = await server.newKey({ plan: 'free' });
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key, searchCache: false, retry: false });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => sg.snapshots.search({ q: `x${i}` })));
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    assert.ok(refused.length >= 1 && refused.length <= 3, `${refused.length} refused`);
    for (const err of refused) {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 429);
      assert.equal(err.code, 'RATE_LIMITED');
      assert.equal(err.retryAfter, 1);
      assert.equal(err.details?.retry_after, 1);
      assert.match(err.requestId ?? '', /^req_/);
    }
  });
});

/**
 * A server that refuses with 429 and no Retry-After a set number of times (the real service
 * always sends Retry-After), to see the client's own backoff sequence.
 */
async function refusingServer(
  refusals: number,
  retryAfter?: string,
  details?: Record<string, unknown>,
): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits++;
    if (hits <= refusals) {
      res.writeHead(429, { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) });
      res.end(
        JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down', details }, request_id: `req_${hits}` }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'ok' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('429 without Retry-After: 1 s, 2 s, 4 s … capped at 30 s, bounded', () => {
  it('backs off exponentially and succeeds when the server lets it', async () => {
    const stub = await refusingServer(7);
    const { sleep, waits } = recordingSleep(true);
    const sg = new SnapgraphClient({ baseUrl: stub.url, apiKey: 'sg_test', sleep, retry: { maxRetries: 8 } });
    assert.deepEqual(await sg.health(), { status: 'ok' });
    assert.deepEqual(waits, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    assert.equal(stub.hits(), 8);
    await stub.close();
  });

  it('gives up after maxRetries with the last 429', async () => {
    const stub = await refusingServer(100);
    const { sleep, waits } = recordingSleep(true);
    const sg = new SnapgraphClient({ baseUrl: stub.url, apiKey: 'sg_test', sleep });
    await assert.rejects(sg.health(), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 429);
      assert.equal(err.code, 'RATE_LIMITED');
      assert.equal(err.requestId, 'req_6');
      return true;
    });
    assert.deepEqual(waits, [1_000, 2_000, 4_000, 8_000, 16_000]);
    assert.equal(stub.hits(), 6);
    await stub.close();
  });

  it("a 429 without Retry-After (a proxy dropped it) still says the body's retry_after", async () => {
    const stub = await refusingServer(1, undefined, { retry_after: 3 });
    const sg = new SnapgraphClient({ baseUrl: stub.url, apiKey: 'sg_test', retry: false });
    await assert.rejects(sg.health(), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 429);
      assert.equal(err.retryAfter, 3);
      return true;
    });
    await stub.close();
  });

  it('Retry-After wins over the sequence, in seconds or as an HTTP date', async () => {
    const seconds = await refusingServer(2, '7');
    const { sleep, waits } = recordingSleep(true);
    await new SnapgraphClient({ baseUrl: seconds.url, apiKey: 'sg_test', sleep }).health();
    assert.deepEqual(waits, [7_000, 7_000]);
    await seconds.close();

    const now = Date.parse('2026-01-01T00:00:00Z');
    const dated = await refusingServer(1, new Date(now + 12_000).toUTCString());
    const recorded = recordingSleep(true);
    await new SnapgraphClient({
      baseUrl: dated.url,
      apiKey: 'sg_test',
      sleep: recorded.sleep,
      now: () => now,
    }).health();
    assert.deepEqual(recorded.waits, [12_000]);
    await dated.close();
  });
});

describe('AbortSignal', () => {
  it('an abort during a wait ends the call at once with the signal’s reason', async () => {
    const stub = await refusingServer(100, '30');
    const sg = new SnapgraphClient({ baseUrl: stub.url, apiKey: 'sg_test' });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(sg.health({ signal: controller.signal }), { name: 'AbortError' });
    assert.ok(Date.now() - started < 5_000, 'did not wait out Retry-After');
    assert.equal(stub.hits(), 1);
    await stub.close();
  });

  it('an already aborted signal sends nothing', async () => {
    const stub = await refusingServer(0);
    const sg = new SnapgraphClient({ baseUrl: stub.url, apiKey: 'sg_test' });
    const reason = new Error('user gave up');
    await assert.rejects(sg.health({ signal: AbortSignal.abort(reason) }), reason);
    assert.equal(stub.hits(), 0);
    await stub.close();
  });

  it('an abort cancels a request in flight on the real server', async () => {
    const server = await startLiveServer();
    const key = await server.newKey();
    const sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key });
    await assert.rejects(sg.snapshots.list({}, { signal: AbortSignal.timeout(0) }), { name: 'TimeoutError' });
    await server.close();
  });
});
