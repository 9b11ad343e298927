import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { testBackend } from '../helpers/database.js';
import { startTestApi, type TestApi } from '../helpers/harness.js';
import { prose } from './prose.js';

/**
 * The compute pool's bounds, as a client sees them: 503 with Retry-After, never a hang. The pool
 * is the same whatever the store, so this runs on SQLite only: on PostgreSQL the busy request's
 * write of a 900,000-character document's snapshots tripled the file's time and tested no more.
 */
describe('compute pool limits', { skip: testBackend !== 'sqlite' }, () => {
  const apis: TestApi[] = [];
  after(() => Promise.all(apis.map((api) => api.close())));

  it('a call over its time budget answers 503 with Retry-After, and the next call works', async () => {
    // 2 s: far below what 240,000 two-letter sentences take (tens of seconds), and above what the
    // fresh thread's first call costs with its language model to load (0.2 s was not, once, on a
    // loaded machine: the short call answered 503 too).
    const api = await startTestApi({ compute: { threads: 1, queueMax: 4, timeoutMs: 2_000 } });
    apis.push(api);
    const key = await api.newKey();
    const long = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'document', title: 'Long', content: 'Ab. '.repeat(240_000) },
    });
    assert.equal(long.status, 503, JSON.stringify(long.body));
    assert.equal(long.body.error.code, 'SERVICE_UNAVAILABLE');
    assert.match(long.body.error.message, /took longer than 2 s/);
    assert.ok(Number(long.headers['retry-after']) >= 1);
    assert.equal(long.body.retry_after, Number(long.headers['retry-after']));
    // A fresh thread took the stopped one's place.
    const short = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'document', title: 'Short', content: 'Always write the test before the fix.' },
    });
    assert.equal(short.status, 201, JSON.stringify(short.body));
  });

  it('with every thread busy and no room to wait, a call answers 503 with Retry-After at once', async () => {
    const api = await startTestApi({ compute: { threads: 1, queueMax: 0, timeoutMs: 120_000 } });
    apis.push(api);
    const key = await api.newKey();
    const busy = api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'document', title: 'Long', content: prose(900_000) },
    });
    // Reading and extracting 900,000 characters takes seconds; the thread is busy well past this.
    await new Promise((r) => setTimeout(r, 500));
    const started = performance.now();
    const refused = await api.request('POST', '/v1/crystallize', {
      key,
      body: { text: 'Small teams ship faster because they talk to each other more often than large ones do.' },
    });
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.ok(performance.now() - started < 1000);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.match(refused.body.error.message, /busy/);
    assert.equal((await busy).status, 201);
  });
});
