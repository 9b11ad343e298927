import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApi, type TestApi, type TestKey } from '../../server/test/helpers/harness.js';
import { browserSkipReason, launchBrowser, screenshot, type TestBrowser } from './helpers/browser.js';

/**
 * Memories where snapshots are, and an explorer that keeps up (design §17), in Debian's Chromium
 * against the real server, in the light and the dark theme: a brain of snapshots and a brain of
 * memories alone.
 */
const skip = browserSkipReason();
const SCHEMES = ['light', 'dark'] as const;

describe('web explorer: memories, and keeping up with changes', { skip }, () => {
  let api: TestApi;
  let key: TestKey;
  let baseUrl: string;
  let browser: TestBrowser;
  let memoryBrain: string;
  const memoryIds: Record<string, string> = {};
  const snapshotIds: string[] = [];
  const parallel: string[] = [];

  const request = async (method: string, url: string, body?: unknown) => {
    const response = await api.request(method, url, { key, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };

  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    key = await api.newKey();
    for (const [name, core] of [
      ['Deploy on Tuesdays', 'We deploy on Tuesdays after the review'],
      ['Deploy freeze', 'No deploy in the week before a release'],
      ['Sleep first', 'Sleep protects learning'],
    ]) {
      snapshotIds.push((await request('POST', '/v1/snapshots', { name, core })).data.id);
    }
    // Two edges between the same two snapshots, one each way.
    for (const [source, target, edge_type] of [
      [0, 1, 'evolved_from'],
      [1, 0, 'contradicts'],
    ] as const) {
      const body = { source_id: snapshotIds[source], target_id: snapshotIds[target], edge_type, strength: 0.9 };
      parallel.push((await request('POST', '/v1/edges', body)).data.id);
    }
    memoryBrain = (await request('POST', '/v1/brains', { name: 'Conversations' })).data.id;
    const remember = async (handle: string, body: Record<string, unknown>) => {
      memoryIds[handle] = (await request('POST', '/v1/memories', { brain_id: memoryBrain, ...body })).data.id;
    };
    // Loaded out of order: the timeline is by occurred_at, not by arrival.
    await remember('dessert', {
      content: 'I will bring the dessert',
      speaker: 'Ana',
      session_id: 'dinner',
      occurred_at: '2026-03-01T19:05:00Z',
    });
    await remember('peanuts', {
      content: 'Tom is allergic to peanuts',
      speaker: 'Tom',
      session_id: 'dinner',
      occurred_at: '2026-03-01T19:00:00Z',
    });
    await remember('wine', {
      content: 'Red wine for everyone else',
      speaker: 'Ana',
      session_id: 'dinner',
      occurred_at: '2026-03-01T19:10:00Z',
    });
    await remember('standup', {
      content: 'The deploy moved to Wednesday',
      speaker: 'Lee',
      session_id: 'standup',
      occurred_at: '2026-02-01T09:00:00Z',
    });
    await remember('note', { content: 'Buy a new kettle', occurred_at: '2026-01-15T08:00:00Z' });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await api?.close();
  });

  async function open(scheme: 'light' | 'dark', path = '/'): Promise<Page> {
    const context = await browser.browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await loaded(page);
    return page;
  }

  const loaded = (page: Page) =>
    page.locator('section[aria-label="Graph"][data-loaded="true"]').waitFor({ timeout: 60_000 });

  for (const scheme of SCHEMES) {
    test(`${scheme}: the picker counts memories; a brain of memories alone is not "empty"`, async () => {
      const page = await open(scheme);
      const option = (id: string) => page.locator(`#brain option[value="${id}"]`).innerText();
      assert.match(await option(key.brainId), /· 3 snapshots$/);
      assert.match(await option(memoryBrain), /· 0 snapshots, 5 memories$/);
      await page.getByLabel('Brain').selectOption(memoryBrain);
      await loaded(page);
      const status = page.locator('#graph-status');
      await status.getByText(/holds 5 memories/).waitFor();
      assert.doesNotMatch(await status.innerText(), /empty/i);
      await page.locator('#memories[data-memories="5"]').waitFor();
      await screenshot(page, `memories-only-${scheme}`);
      await page.context().close();
    });

    test(`${scheme}: the memories view is a timeline by occurred_at, grouped by session, and searchable with context`, async () => {
      const page = await open(scheme, `/?brain=${memoryBrain}`);
      const memories = page.locator('#memories');
      await memories.locator('[data-memory-id]').first().waitFor();
      // Sessions in the order they began; memories without one last; each oldest first.
      const sessions = await memories
        .locator('.memory-session')
        .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.session));
      assert.deepEqual(sessions, ['standup', 'dinner', '']);
      const dinner = await memories
        .locator('.memory-session[data-session="dinner"] [data-memory-id]')
        .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.memoryId));
      assert.deepEqual(dinner, [memoryIds.peanuts, memoryIds.dessert, memoryIds.wine]);
      assert.match(
        await memories.locator(`[data-memory-id="${memoryIds.peanuts}"]`).innerText(),
        /Tom: Tom is allergic/,
      );

      // Search: the hit, and the turns around it in its session (the API's context).
      await page.getByLabel('Find in memories').fill('dessert');
      await page.locator('#memories-search').getByRole('button', { name: 'Find' }).click();
      await page.locator('#memories[data-hits]').waitFor();
      const hit = memories.locator('.memory-hit').first();
      assert.equal(await hit.locator('.memory.hit').getAttribute('data-memory-id'), memoryIds.dessert);
      const around = await hit
        .locator('.memory.context')
        .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.memoryId));
      assert.deepEqual(around, [memoryIds.peanuts, memoryIds.wine]);
      await screenshot(page, `memories-search-${scheme}`);
      await page.context().close();
    });

    test(`${scheme}: two edges between the same two snapshots are drawn apart, curved, each in its colour`, async () => {
      const page = await open(scheme);
      const drawn = await page.evaluate((edges) => {
        const { renderer } = (window as unknown as { snapgraphExplorer: { view(): any } }).snapgraphExplorer.view();
        return edges.map((edge) => {
          const data = renderer.getEdgeDisplayData(edge);
          return { type: data.type, curvature: data.curvature, color: data.color, hidden: data.hidden };
        });
      }, parallel);
      assert.deepEqual(
        drawn.map((d) => [d.type, d.hidden]),
        [
          ['curved', false],
          ['curved', false],
        ],
      );
      // One runs each way, so the same sign of curvature bows them to opposite sides.
      assert.equal(Math.sign(drawn[0]!.curvature), Math.sign(drawn[1]!.curvature));
      assert.notEqual(drawn[0]!.color, drawn[1]!.color, 'both types readable by colour');
      await screenshot(page, `parallel-edges-${scheme}`);
      await page.context().close();
    });

    test(`${scheme}: a search is rerun in the brain switched to, the URL keeping q`, async () => {
      const page = await open(scheme, '/?q=deploy');
      await page
        .locator('#search-status')
        .getByText(/^2 results for “deploy”/)
        .waitFor();
      await page.getByLabel('Brain').selectOption(memoryBrain);
      await loaded(page);
      // The first brain's results are gone; the query is run in this brain (no snapshot matches).
      await page
        .locator('#search-status')
        .getByText(/Nothing matches “deploy”/)
        .waitFor();
      assert.equal(await page.locator('#results li').count(), 0);
      assert.match(page.url(), /[?&]q=deploy/);
      assert.match(page.url(), new RegExp(`brain=${memoryBrain}`));
      await page.context().close();
    });
  }

  test('the picker and the memories view are brought up to date after a change (a crystallize)', async () => {
    const page = await open('light');
    const option = page.locator(`#brain option[value="${key.brainId}"]`);
    const before = Number(/· (\d+) snapshots/.exec(await option.innerText())?.[1]);
    await page
      .getByLabel('Text to crystallize')
      .fill(
        'I have learned that writing every morning clears my head. Deep work needs long uninterrupted blocks of time. ' +
          'Meetings after lunch drain my energy more than anything else.',
      );
    await page.getByRole('button', { name: 'Crystallize' }).click();
    await page.getByText(/^Added \d+ new snapshots?/).waitFor({ timeout: 60_000 });
    await loaded(page);
    const nodes = Number(await page.locator('#graph-region').getAttribute('data-nodes'));
    assert.ok(nodes > before);
    await page.waitForFunction(
      ([id, n]) => document.querySelector(`#brain option[value="${id}"]`)?.textContent?.includes(`· ${n} snapshots`),
      [key.brainId, nodes] as const,
    );
    await page.context().close();
  });

  test('a superseded memory is struck through and linked to its replacement (when the API sends superseded_by)', async (t) => {
    const replaced = await api.request('PUT', `/v1/memories/${memoryIds.standup}`, {
      key,
      body: { superseded_by: memoryIds.note },
    });
    if (replaced.status !== 200) {
      t.skip(`this server does not take superseded_by yet (${replaced.status}): design §6.1 lands on another branch`);
      return;
    }
    for (const scheme of SCHEMES) {
      const page = await open(scheme, `/?brain=${memoryBrain}`);
      const old = page.locator(`#memory-${memoryIds.standup}`);
      await old.waitFor();
      assert.equal(await old.locator('s').count(), 1, 'struck through');
      assert.equal(await old.locator('a.replaced-by').getAttribute('href'), `#memory-${memoryIds.note}`);
      await page.context().close();
    }
  });
});
