import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { behave, startFakeOpenAI } from '../helpers/fake-openai.js';
import { manualClock, snapshotBody, startTestApi, type TestApi } from '../helpers/harness.js';

/** The value of one series in Prometheus's text format, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    const have = inside.split(',');
    if (wanted.every((pair) => have.includes(pair)) && have.length === wanted.length) {
      return Number(line.slice(line.indexOf('}') + 2));
    }
  }
  return undefined;
}

describe('GET /metrics', () => {
  const apis: TestApi[] = [];
  after(() => Promise.all(apis.map((api) => api.close())));
  const start = async (options: Parameters<typeof startTestApi>[0]) => {
    const api = await startTestApi(options);
    apis.push(api);
    return api;
  };

  it('is off unless METRICS=true: 404, in the error body', async () => {
    const api = await start({});
    const response = await api.request('GET', '/metrics');
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'NOT_FOUND');
  });

  it('counts requests by route and status, with latency histograms, after a known mix', async () => {
    const api = await start({ metrics: true, backgroundWork: false });
    const key = await api.newKey();
    const created = await api.request('POST', '/v1/snapshots', { key, body: snapshotBody() });
    for (let i = 0; i < 3; i++) await api.request('GET', `/v1/snapshots/${created.body.data.id}`, { key });
    await api.request('GET', '/api/v1/snapshots/snap_0000000000000000000000000', { key });
    await api.request('POST', '/v1/snapshots', { key, body: { name: 'no core' } });
    await api.request('GET', '/v1/snapshots');
    await api.request('GET', '/nowhere/at/all');

    const scraped = await api.request('GET', '/metrics');
    assert.equal(scraped.status, 200);
    assert.match(String(scraped.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const text = scraped.raw.body;
    const requests = (method: string, route: string, status: string) =>
      sample(text, 'snapgraph_http_requests_total', { method, route, status });
    assert.equal(requests('POST', '/v1/snapshots', '201'), 1);
    assert.equal(requests('GET', '/v1/snapshots/:id', '200'), 3);
    assert.equal(requests('GET', '/api/v1/snapshots/:id', '404'), 1);
    assert.equal(requests('POST', '/v1/snapshots', '400'), 1);
    assert.equal(requests('GET', '/v1/snapshots', '401'), 1);
    assert.equal(requests('GET', 'unmatched', '404'), 1);
    const labels = { method: 'GET', route: '/v1/snapshots/:id', status: '200' };
    assert.equal(sample(text, 'snapgraph_http_request_duration_seconds_count', labels), 3);
    assert.equal(sample(text, 'snapgraph_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }), 3);
    assert.match(text, /^# TYPE snapgraph_http_request_duration_seconds histogram$/m);
    assert.match(text, /^snapgraph_process_resident_memory_bytes \d+/m);
    // The scrape itself is counted once answered: on the next scrape.
    const next = (await api.request('GET', '/metrics')).raw.body;
    assert.equal(sample(next, 'snapgraph_http_requests_total', { method: 'GET', route: '/metrics', status: '200' }), 1);
  });

  it('answers another method with 405 and Allow, as every path does', async () => {
    const api = await start({ metrics: true, backgroundWork: false });
    const response = await api.request('POST', '/metrics');
    assert.equal(response.status, 405);
    assert.equal(response.body.error.code, 'METHOD_NOT_ALLOWED');
    assert.match(String(response.headers.allow), /\bGET\b/);
  });

  it('counts rate-limit refusals by group', async () => {
    const api = await start({ metrics: true, rateLimits: true, clock: manualClock(), backgroundWork: false });
    const key = await api.newKey({ plan: 'free' });
    // Free: 10 reads a second, 5 searches a second; the clock stands still.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api.request('GET', '/v1/snapshots', { key })).status);
    for (let i = 0; i < 6; i++) statuses.push((await api.request('GET', '/v1/snapshots/search?q=x', { key })).status);
    assert.equal(statuses.filter((s) => s === 429).length, 3);
    const text = (await api.request('GET', '/metrics')).raw.body;
    assert.equal(sample(text, 'snapgraph_rate_limit_refusals_total', { group: 'snapshots_read' }), 2);
    assert.equal(sample(text, 'snapgraph_rate_limit_refusals_total', { group: 'search' }), 1);
    assert.equal(
      sample(text, 'snapgraph_http_requests_total', { method: 'GET', route: '/v1/snapshots', status: '429' }),
      2,
    );
  });

  it('reports queue depths (auto-link, embeddings, jobs) as they are when scraped', async () => {
    const api = await start({ metrics: true, backgroundWork: false });
    const key = await api.newKey();
    await api.request('PUT', `/v1/brains/${key.brainId}`, { key, body: { auto_link: true } });
    for (let i = 0; i < 2; i++)
      await api.request('POST', '/v1/snapshots', { key, body: snapshotBody({ name: `n${i}` }) });
    // No runner in this process (backgroundWork: false): a job asked for stays queued.
    const queued = await api.request('POST', '/v1/crystallize', {
      key,
      headers: { prefer: 'respond-async' },
      body: { text: 'Always write the test before you fix a bug; the fix alone comes back later.' },
    });
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    const text = (await api.request('GET', '/metrics')).raw.body;
    assert.equal(sample(text, 'snapgraph_queue_depth', { queue: 'auto_link' }), 2);
    assert.equal(sample(text, 'snapgraph_queue_depth', { queue: 'embed' }), 0);
    assert.equal(sample(text, 'snapgraph_queue_depth', { queue: 'jobs' }), 1);
  });

  it('counts provider calls and failures', async () => {
    const provider = await startFakeOpenAI({ dimension: 8 });
    try {
      const api = await start({
        metrics: true,
        embeddings: { baseUrl: provider.url, apiKey: undefined, model: 'fake', timeoutMs: 5000, batchSize: 16 },
      });
      const key = await api.newKey();
      provider.setDefault('embeddings', behave.status(500));
      await api.request('POST', '/v1/snapshots', { key, body: snapshotBody() });
      let text = '';
      for (let tries = 0; tries < 200; tries++) {
        text = (await api.request('GET', '/metrics')).raw.body;
        if (sample(text, 'snapgraph_provider_calls_total', { service: 'embeddings', outcome: 'unavailable' })) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // The start-up probe succeeded; the background embedding met the provider's 500.
      assert.equal(sample(text, 'snapgraph_provider_calls_total', { service: 'embeddings', outcome: 'ok' }), 1);
      assert.ok(
        (sample(text, 'snapgraph_provider_calls_total', { service: 'embeddings', outcome: 'unavailable' }) ?? 0) >= 1,
      );
      assert.ok((sample(text, 'snapgraph_provider_call_duration_seconds_count', { service: 'embeddings' }) ?? 0) >= 2);
    } finally {
      await provider.close();
    }
  });
});
