import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApi, type TestApi, type TestKey } from '../../server/test/helpers/harness.js';
import { browserSkipReason, launchBrowser, screenshot, type TestBrowser } from './helpers/browser.js';

/**
 * The explorer in Debian's Chromium against the real server (the server package's buildApp on a
 * fresh database, listening on a free port), seeded through the HTTP API.
 */
const skip = browserSkipReason();

describe('web explorer in Chromium', { skip }, () => {
  let api: TestApi;
  let key: TestKey;
  let baseUrl: string;
  let browser: TestBrowser;
  const ids: Record<string, string> = {};

  const call = async (method: string, url: string, body?: unknown) => {
    const response = await api.request(method, url, { key, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };

  before(async () => {
    // No background work: no automatic edges appear behind the test's back, so the counts are exact.
    api = await startTestApi({ backgroundWork: false });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    key = await api.newKey();
    const seed: [string, string, string, string[]][] = [
      ['compound', 'Compounding habits', 'Small consistent habits compound into large results over years', ['habits']],
      ['small', 'Small habits compound', 'Small daily habits compound into large results over many years', ['habits']],
      ['sleep', 'Sleep first', 'Sleep protects learning and memory', ['health']],
      ['grind', 'Grind culture', 'Working through the night beats sleeping', ['work']],
      ['v1', 'Plans v1', 'Plan every week in detail', []],
      ['v2', 'Plans v2', 'Plan the week loosely and review daily', []],
    ];
    const types = ['Principle', 'Belief', 'Rule', 'Conviction', 'Model', 'Model'];
    for (const [i, [handle, name, core, tags]] of seed.entries()) {
      ids[handle] = (await call('POST', '/v1/snapshots', { name, core, tags, type: types[i] })).data.id;
    }
    await call('POST', '/v1/edges', {
      source_id: ids.sleep,
      target_id: ids.compound,
      edge_type: 'supports',
      strength: 0.8,
    });
    await call('POST', '/v1/edges', {
      source_id: ids.grind,
      target_id: ids.sleep,
      edge_type: 'contradicts',
      strength: 0.9,
    });
    await call('POST', '/v1/edges', { source_id: ids.v2, target_id: ids.v1, edge_type: 'evolved_from', strength: 0.7 });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await api?.close();
  });

  async function signIn(page: Page, apiKey = key.key): Promise<void> {
    await page.goto(baseUrl);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** A search result: a list item holding the snapshot's name. */
  const resultItem = (page: Page, name: string) =>
    page.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });

  async function graphLoaded(page: Page): Promise<void> {
    await page.locator('section[aria-label="Graph"][data-loaded="true"]').waitFor({ timeout: 60_000 });
  }

  test('/ serves the page with its caching headers', async () => {
    const index = await fetch(`${baseUrl}/`);
    assert.equal(index.status, 200);
    assert.equal(index.headers.get('cache-control'), 'no-cache');
    const html = await index.text();
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    assert.ok(asset, 'index.html names a hashed script');
    const script = await fetch(`${baseUrl}${asset}`);
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await fetch(`${baseUrl}/assets/nothing-here.js`)).status, 404);
    assert.equal((await fetch(`${baseUrl}/v1/snapshots`)).status, 401, 'the API still needs a key');
  });

  test('a wrong key gets a clear message', async () => {
    const { page, context } = await browser.newPage();
    await signIn(page, 'sg_not_a_real_key');
    await page.getByRole('alert').filter({ hasText: 'not accepted (401)' }).waitFor();
    await screenshot(page, 'wrong-key');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('snapgraph.apiKey')), null);
    await context.close();
  });

  test('sign in, see the graph, search, filter, open and edit, and keep the view on reload', async () => {
    const { page, context } = await browser.newPage();
    await signIn(page);
    await graphLoaded(page);
    const region = page.getByRole('region', { name: 'Graph' });
    assert.equal(await region.getAttribute('data-nodes'), '6');
    assert.equal(await region.getAttribute('data-edges'), '3');
    await region.getByRole('status').filter({ hasText: '6 snapshots and 3 edges' }).waitFor();
    assert.equal(await page.getByLabel('Brain').inputValue(), key.brainId);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('snapgraph.apiKey')), key.key);
    assert.doesNotMatch(page.url(), /sg_/, 'the key is never in the URL');
    await screenshot(page, 'graph');

    // Search: the results listed with their score, highlighted in the graph.
    await page.getByRole('searchbox', { name: 'Search' }).fill('sleep');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    const result = resultItem(page, 'Sleep first');
    await result.waitFor();
    assert.match(await result.innerText(), /score \d\.\d{4}/);
    assert.match(await result.innerText(), /contradicted by Grind culture/);
    assert.ok(Number(await region.getAttribute('data-highlighted')) >= 1);
    await screenshot(page, 'search');

    // The legend is the filter: only contradictions.
    await page.getByRole('checkbox', { name: 'contradicts' }).check();
    await region.getByRole('status').filter({ hasText: 'showing 6 and 1' }).waitFor();
    assert.equal(await region.getAttribute('data-visible-edges'), '1');

    // Open a snapshot and edit it; the change is in the API.
    await result.getByRole('button').click();
    const panel = page.getByRole('region', { name: 'Snapshot' });
    await panel.getByRole('heading', { name: 'Sleep first' }).waitFor();
    assert.match(await panel.innerText(), /Sleep protects learning and memory/);
    assert.match(await panel.innerText(), /contradicts \(0\.90\) Grind culture/);
    await panel.getByRole('button', { name: 'Edit' }).click();
    await panel.getByLabel('Core').fill('Sleep protects learning, memory and mood');
    await panel.getByLabel('Tags (comma separated)').fill('health, sleep');
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Saved' }).waitFor();
    const stored = (await call('GET', `/v1/snapshots/${ids.sleep}`)).data;
    assert.equal(stored.core, 'Sleep protects learning, memory and mood');
    assert.deepEqual(stored.tags, ['health', 'sleep']);
    await screenshot(page, 'edited');

    // The view is in the URL and survives a reload (the key is in sessionStorage).
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('brain'), key.brainId);
    assert.equal(url.searchParams.get('snapshot'), ids.sleep);
    assert.equal(url.searchParams.get('q'), 'sleep');
    assert.equal(url.searchParams.get('edges'), 'contradicts');
    await page.reload();
    await graphLoaded(page);
    await panel.getByRole('heading', { name: 'Sleep first' }).waitFor();
    assert.equal(await page.getByRole('searchbox', { name: 'Search' }).inputValue(), 'sleep');
    assert.equal(await page.getByRole('checkbox', { name: 'contradicts' }).isChecked(), true);
    await resultItem(page, 'Sleep first').waitFor();
    await context.close();
  });

  test('the edit form refuses an emptied number, and Save with nothing changed sends nothing', async () => {
    const { page, context } = await browser.newPage();
    const puts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') puts.push(request.postData() ?? '');
    });
    await page.goto(`${baseUrl}/?snapshot=${ids.v2}`);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await graphLoaded(page);
    const panel = page.getByRole('region', { name: 'Snapshot' });
    await panel.getByRole('heading', { name: 'Plans v2' }).waitFor();
    const before = (await call('GET', `/v1/snapshots/${ids.v2}`)).data;

    // An emptied Confidence or Significance is refused in the form, never saved as 0.
    for (const label of ['Confidence (0 to 1)', 'Significance (0 to 1)']) {
      await panel.getByRole('button', { name: 'Edit' }).click();
      await panel.getByLabel(label).fill('');
      await panel.getByRole('button', { name: 'Save' }).click();
      const name = label.split(' ')[0];
      await page
        .getByRole('alert')
        .filter({ hasText: `${name} must be a number from 0 to 1` })
        .waitFor();
      assert.equal(await panel.getByRole('button', { name: 'Save' }).isVisible(), true, 'the form stays open');
      await panel.getByRole('button', { name: 'Cancel' }).click();
    }
    const after = (await call('GET', `/v1/snapshots/${ids.v2}`)).data;
    assert.equal(after.confidence, before.confidence);
    assert.equal(after.significance_score, before.significance_score);

    // Save with every field as it was: no PUT {} (the API's 400), the editor closes.
    await panel.getByRole('button', { name: 'Edit' }).click();
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing changed.' }).waitFor();
    await panel.getByRole('button', { name: 'Edit' }).waitFor();
    assert.deepEqual(puts, [], 'no update was sent');
    await context.close();
  });

  test('filter values in the URL that the page does not know are dropped, not left to hide the graph', async () => {
    const { page, context } = await browser.newPage();
    await page.goto(`${baseUrl}/?types=belief,Bogus&edges=nope&tag=nosuchtag`);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await graphLoaded(page);
    const region = page.getByRole('region', { name: 'Graph' });
    // Only the known value is kept (spelled as the page does): the Belief snapshot and no edge between Beliefs.
    assert.equal(await page.getByRole('checkbox', { name: 'Belief' }).isChecked(), true);
    assert.equal(await region.getAttribute('data-visible-nodes'), '1');
    assert.equal(await page.getByLabel('Tag').inputValue(), '');
    const url = new URL(page.url());
    assert.equal(url.searchParams.get('types'), 'Belief');
    assert.equal(url.searchParams.get('edges'), null);
    assert.equal(url.searchParams.get('tag'), null);
    // Unticking it shows everything again.
    await page.getByRole('checkbox', { name: 'Belief' }).uncheck();
    await region
      .getByRole('status')
      .filter({ hasText: /^\d+ snapshots and \d+ edges$/ })
      .waitFor();
    assert.equal(await region.getAttribute('data-visible-nodes'), await region.getAttribute('data-nodes'));
    assert.equal(new URL(page.url()).searchParams.get('types'), null);
    await context.close();
  });

  test('a search refused with 429 three times in a row waits each Retry-After out, then answers', async () => {
    const { page, context } = await browser.newPage();
    await signIn(page);
    await graphLoaded(page);
    // The server's own answer for a key over its burst window, three times: more than two waits.
    let refused = 0;
    await page.route('**/v1/snapshots/search*', async (route) => {
      if (refused >= 3) return route.continue();
      refused++;
      await route.fulfill({
        status: 429,
        headers: { 'retry-after': '1', 'content-type': 'application/json' },
        body: JSON.stringify({
          error: { code: 'RATE_LIMITED', message: 'rate limit exceeded' },
          request_id: 'req_test',
        }),
      });
    });
    await page.getByRole('searchbox', { name: 'Search' }).fill('sleep');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await page.getByRole('alert').filter({ hasText: 'waiting 1 s' }).waitFor();
    await resultItem(page, 'Sleep first').waitFor({ timeout: 60_000 });
    assert.equal(refused, 3);
    assert.equal(await page.getByRole('alert').filter({ hasText: 'Rate limited' }).count(), 0, 'the wait is over');
    await context.close();
  });

  test('create and delete an edge between two selected snapshots', async () => {
    const { page, context } = await browser.newPage();
    await page.goto(`${baseUrl}/?snapshot=${ids.v1}`);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await graphLoaded(page);
    const panel = page.getByRole('region', { name: 'Snapshot' });
    await panel.getByRole('heading', { name: 'Plans v1' }).waitFor();
    await panel.getByRole('button', { name: 'Start an edge from here' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('grind');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await resultItem(page, 'Grind culture').getByRole('button').click();
    await panel.getByRole('heading', { name: 'Grind culture' }).waitFor();
    await panel.getByLabel('Edge type').selectOption('elaborates');
    await panel.getByLabel('Strength').fill('0.65');
    await panel.getByLabel('Label').fill('plans need rest');
    await panel.getByRole('button', { name: 'Create edge' }).click();
    await page.getByRole('alert').filter({ hasText: 'Edge elaborates created' }).waitFor();
    const edges = (await call('GET', `/v1/edges?snapshot_id=${ids.grind}&edge_type=elaborates`)).data;
    assert.equal(edges.length, 1);
    assert.equal(edges[0].source_id, ids.v1);
    assert.equal(edges[0].strength, 0.65);
    assert.equal(edges[0].label, 'plans need rest');
    await page.locator('section[aria-label="Graph"][data-edges="4"]').waitFor();
    await screenshot(page, 'edge-created');

    await panel.getByRole('button', { name: 'Delete edge elaborates with Plans v1' }).click();
    await page.getByRole('alert').filter({ hasText: 'Edge deleted' }).waitFor();
    assert.equal((await call('GET', `/v1/edges?snapshot_id=${ids.grind}&edge_type=elaborates`)).data.length, 0);
    await context.close();
  });

  test('accept a suggestion, follow an evolved_from chain, delete with confirmation', async () => {
    // A snapshot like "Compounding habits", to reject as its suggestion (deleted at the end).
    const interest = (
      await call('POST', '/v1/snapshots', {
        name: 'Habits like interest',
        core: 'Small consistent habits compound into large results like interest over years',
      })
    ).data.id;
    const { page, context } = await browser.newPage();
    await signIn(page);
    await graphLoaded(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill('plans');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await resultItem(page, 'Plans v2').getByRole('button').click();
    const panel = page.getByRole('region', { name: 'Snapshot' });
    await panel.getByRole('heading', { name: 'Plans v2' }).waitFor();
    await panel.getByRole('list', { name: 'Evolved from chain' }).getByRole('button', { name: 'Plans v1' }).click();
    await panel.getByRole('heading', { name: 'Plans v1' }).waitFor();

    await page.getByRole('searchbox', { name: 'Search' }).fill('compound');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await resultItem(page, 'Compounding habits').getByRole('button').click();
    await panel.getByRole('heading', { name: 'Compounding habits' }).waitFor();
    await panel.getByRole('button', { name: 'Show suggestions' }).click();
    const suggestion = panel
      .getByRole('list', { name: 'Suggestions' })
      .getByRole('listitem')
      .filter({ hasText: 'Small habits compound' });
    await suggestion.waitFor();
    await suggestion.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('alert').filter({ hasText: 'created' }).waitFor();
    const between = (await call('GET', `/v1/edges?snapshot_id=${ids.small}`)).data;
    assert.ok(between.some((e: any) => [e.source_id, e.target_id].includes(ids.compound)));

    // Reject another: no edge is left, and it is never suggested again (a tombstone).
    await panel.getByRole('button', { name: 'Show suggestions' }).click();
    const rejected = panel
      .getByRole('list', { name: 'Suggestions' })
      .getByRole('listitem')
      .filter({ hasText: 'Habits like interest' });
    await rejected.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('alert').filter({ hasText: 'rejected' }).waitFor();
    await rejected.waitFor({ state: 'detached' });
    assert.deepEqual((await call('GET', `/v1/edges?snapshot_id=${interest}`)).data, []);
    const again = (await call('GET', `/v1/snapshots/${ids.compound}/suggestions`)).data;
    assert.ok(!again.some((s: any) => [s.source_id, s.target_id].includes(interest)), JSON.stringify(again));
    await call('DELETE', `/v1/snapshots/${interest}`);

    await page.getByRole('searchbox', { name: 'Search' }).fill('grind');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await resultItem(page, 'Grind culture').getByRole('button').click();
    await panel.getByRole('heading', { name: 'Grind culture' }).waitFor();
    await panel.getByRole('button', { name: 'Delete', exact: true }).click();
    await panel.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByRole('alert').filter({ hasText: 'Snapshot deleted' }).waitFor();
    assert.equal((await api.request('GET', `/v1/snapshots/${ids.grind}`, { key })).status, 404);
    await context.close();
  });

  test('crystallize a text and see the run', async () => {
    const { page, context } = await browser.newPage({ width: 390, height: 844 });
    await signIn(page);
    await graphLoaded(page);
    const before = Number(await page.getByRole('region', { name: 'Graph' }).getAttribute('data-nodes'));
    await page
      .getByLabel('Text to crystallize')
      .fill(
        'I have learned that writing every morning clears my head. Deep work needs long uninterrupted blocks of time. ' +
          'Meetings after lunch drain my energy more than anything else.',
      );
    await page.getByRole('button', { name: 'Crystallize' }).click();
    await page.getByText(/^Added \d+ new snapshots? and \d+ automatic edges?/).waitFor({ timeout: 60_000 });
    await page
      .locator('#crystallize-result')
      .getByText(/^cry_\w+$/)
      .waitFor();
    await graphLoaded(page);
    const nodes = Number(await page.getByRole('region', { name: 'Graph' }).getAttribute('data-nodes'));
    assert.ok(nodes > before, `the graph grew from ${before} to ${nodes}`);
    await screenshot(page, 'crystallized-phone');
    await context.close();
  });
});
