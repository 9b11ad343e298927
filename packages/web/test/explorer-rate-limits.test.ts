import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../../server/test/helpers/harness.js';
import { browserSkipReason, launchBrowser, type TestBrowser } from './helpers/browser.js';

/**
 * The explorer under a key's rate limits, in Debian's Chromium against the real server with
 * limits on: a brain bigger than one page of every list opens within a few reads a minute, as a
 * Free key's brain of 10,000 snapshots must within its 60.
 */
const skip = browserSkipReason();

const SNAPSHOTS = 250;
const EDGES = 300;

describe('web explorer under rate limits', { skip }, () => {
  let api: TestApi;
  let seeder: TestKey;
  let baseUrl: string;
  let browser: TestBrowser;

  before(async () => {
    api = await startTestApi({ backgroundWork: false, rateLimits: true });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    seeder = await api.newKey({ plan: 'enterprise', rpm: 1_000_000, burst: 100_000 });
    const post = async (url: string, body: unknown) => {
      const response = await api.request('POST', url, { key: seeder, body });
      assert.ok(response.status < 300, `POST ${url}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.data.id as string;
    };
    // One type and one edge type: more than two pages of each list.
    const ids: string[] = [];
    for (let i = 0; i < SNAPSHOTS; i++) {
      ids.push(await post('/v1/snapshots', { name: `Snapshot ${i}`, core: `Core text number ${i}`, type: 'Belief' }));
    }
    for (let i = 0; i < EDGES; i++) {
      const step = 1 + Math.floor(i / SNAPSHOTS);
      await post('/v1/edges', {
        source_id: ids[i % SNAPSHOTS],
        target_id: ids[(i + step) % SNAPSHOTS],
        edge_type: 'supports',
      });
    }
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await api?.close();
  });

  test('a key of 6 reads a minute opens a brain of 250 snapshots and 300 edges, in one export request', async () => {
    // Sign-in reads twice (the brain list, the default brain); the graph is the export and the brain's counts.
    const key = await api.newKey({ plan: 'enterprise', rpm: 6, burst: 6, brainId: seeder.brainId });
    const { page, context } = await browser.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/v1/')) asked.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    await page.goto(baseUrl);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const region = page.locator('section[aria-label="Graph"][data-loaded="true"]');
    await region.waitFor({ timeout: 60_000 });
    assert.equal(await region.getAttribute('data-nodes'), String(SNAPSHOTS));
    assert.equal(await region.getAttribute('data-edges'), String(EDGES));
    const graphReads = asked.filter(
      (line) => /^GET \/v1\/(snapshots|edges)\?/.test(line) && !/limit=1(&|$)/.test(line),
    );
    assert.deepEqual(graphReads, [], 'no page walk of the lists');
    assert.equal(asked.filter((line) => line.startsWith(`GET /v1/brains/${seeder.brainId}/export`)).length, 1);
    await context.close();
  });
});
