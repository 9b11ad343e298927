import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApi, type TestApi, type TestKey } from '../../server/test/helpers/harness.js';
import { waitForJob } from '../../server/test/jobs/support.js';
import { browserSkipReason, launchBrowser, screenshot, type TestBrowser } from './helpers/browser.js';
import { AUTO_EDGES, ingestedBrainExport, ingestedEdges, SNAPSHOTS, topicOf } from './helpers/ingested-brain.js';

/**
 * A brain as ingestion leaves it (issue 49: 39 snapshots, 132 automatic edges) read in Debian's
 * Chromium against the real server, light and dark: weak automatic edges hidden until asked for,
 * the page saying so, and the topics drawn apart.
 */
const skip = browserSkipReason();
const SCHEMES = ['light', 'dark'] as const;
const BRAIN = 'brain_01INGESTED0BRAIN0TEST000';

interface Drawn {
  edges: string[];
  positions: Record<string, { x: number; y: number }>;
}

/** What sigma draws: the edges it does not hide, and where each node is on screen. */
const drawn = (page: Page) =>
  page.evaluate((): Drawn => {
    const view = (window as any).snapgraphExplorer.view();
    const renderer = view.renderer;
    const edges = view.graph.edges().filter((edge: string) => !renderer.getEdgeDisplayData(edge)?.hidden);
    const positions: Drawn['positions'] = {};
    for (const node of view.graph.nodes()) {
      positions[node] = renderer.framedGraphToViewport(renderer.getNodeDisplayData(node));
    }
    return { edges, positions };
  });

/**
 * Labels that read as another node's: for each label drawn without a line to its node, the nodes
 * (other than its own) that are as near to its box as its own node is. Empty when every label
 * sits by its node.
 */
const misplacedLabels = (page: Page): Promise<{ wrong: string[]; drawn: number }> =>
  // A string, not a function: tsx names the arrow functions inside, and the page has no __name.
  page.evaluate(`(() => {
    const view = window.snapgraphExplorer.view();
    const renderer = view.renderer;
    const gap = (box, x, y) =>
      Math.hypot(Math.max(box.x - x, 0, x - box.x - box.w), Math.max(box.y - y, 0, y - box.y - box.h));
    const discs = [];
    for (const node of view.graph.nodes()) {
      const display = renderer.getNodeDisplayData(node);
      if (!display || display.hidden) continue;
      const { x, y } = renderer.framedGraphToViewport(display);
      discs.push({ key: node, x, y, r: renderer.scaleSize(display.size) });
    }
    const wrong = [];
    for (const [key, box] of view.labels.drawnAt) {
      const own = discs.find((disc) => disc.key === key);
      const ownGap = gap(box, own.x, own.y) - own.r;
      // One joined to its node by a line reads as its node's wherever it is.
      if (view.labels.drawnTethered.has(key)) continue;
      for (const disc of discs) {
        if (disc.key !== key && gap(box, disc.x, disc.y) - disc.r <= ownGap) wrong.push(key + ' beside ' + disc.key);
      }
    }
    return { wrong, drawn: view.labels.drawnAt.size };
  })()`);

/** Waits until the camera has stopped moving (a flight takes 450 ms). */
const cameraAtRest = (page: Page) =>
  page.waitForFunction(() => {
    const camera = (window as any).snapgraphExplorer.view()?.renderer.getCamera();
    return camera !== undefined && !camera.isAnimated();
  });

describe('web explorer: a large ingested brain stays readable', { skip }, () => {
  let api: TestApi;
  let key: TestKey;
  let baseUrl: string;
  let browser: TestBrowser;
  const edges = ingestedEdges();
  const strongOrManual = edges.filter((e) => e.origin === 'manual' || e.strength >= 0.6).map((e) => e.id);

  before(async () => {
    api = await startTestApi({ imports: { maxBytes: 1024 * 1024, dir: undefined } });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    key = await api.newKey();
    const accepted = await api.request('POST', '/v1/brains/import', {
      key,
      rawBody: ingestedBrainExport(key.accountId, BRAIN),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const job = await waitForJob(api.request, key, accepted.body.data.job_id);
    assert.equal(job.status, 'succeeded', JSON.stringify(job.error));
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await api?.close();
  });

  async function open(scheme: 'light' | 'dark', query = '', width = 1440): Promise<Page> {
    const context = await browser.browser.newContext({ colorScheme: scheme, viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/?brain=${BRAIN}${query}`);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .locator('section[aria-label="Graph"][data-loaded="true"][data-layout="done"]')
      .waitFor({ timeout: 60_000 });
    return page;
  }

  for (const scheme of SCHEMES) {
    test(`weak automatic edges are hidden by default, counted, and shown by the control (${scheme})`, async () => {
      assert.equal(edges.filter((e) => e.origin === 'auto').length, AUTO_EDGES);
      const page = await open(scheme);
      const region = page.locator('#graph-region');
      assert.equal(await region.getAttribute('data-nodes'), String(SNAPSHOTS));
      assert.equal(await region.getAttribute('data-edges'), String(edges.length));
      assert.equal(await region.getAttribute('data-visible-edges'), String(strongOrManual.length));
      const weak = edges.length - strongOrManual.length;
      assert.equal(await region.getAttribute('data-weak-auto-edges'), String(weak));
      assert.ok(strongOrManual.length < edges.length / 2, 'well under half the edges are drawn at first');

      const before = await drawn(page);
      assert.deepEqual(
        before.edges.sort(),
        [...strongOrManual].sort(),
        'sigma draws exactly the strong and manual edges',
      );
      assert.match(
        (await page.locator('#graph-status').textContent()) ?? '',
        new RegExp(`${weak} automatic edges weaker than 0.60 hidden`),
      );

      // The topics are drawn apart: a snapshot is nearer, on average, to those of its own topic.
      const distance = (a: number, b: number) => {
        const p = before.positions[`snap_01INGESTED${String(a).padStart(16, '0')}`]!;
        const q = before.positions[`snap_01INGESTED${String(b).padStart(16, '0')}`]!;
        return Math.hypot(p.x - q.x, p.y - q.y);
      };
      let same = 0;
      let sameCount = 0;
      let other = 0;
      let otherCount = 0;
      for (let a = 0; a < SNAPSHOTS; a++) {
        for (let b = a + 1; b < SNAPSHOTS; b++) {
          if (topicOf(a) === topicOf(b)) [same, sameCount] = [same + distance(a, b), sameCount + 1];
          else [other, otherCount] = [other + distance(a, b), otherCount + 1];
        }
      }
      assert.ok(same / sameCount < (other / otherCount) * 0.75, `${same / sameCount} vs ${other / otherCount}`);
      const labels = await misplacedLabels(page);
      assert.ok(labels.drawn >= 20, `most snapshots are labelled (${labels.drawn})`);
      assert.deepEqual(labels.wrong, [], 'every label sits by its own node');
      await screenshot(page, `brain-39-ingested-${scheme}`);

      // The control: every automatic edge again, in the URL too.
      await page.getByLabel('Show weak automatic edges too').check();
      await page.waitForFunction(
        () => document.querySelector('#graph-region')?.getAttribute('data-weak-auto-edges') === '0',
      );
      assert.equal(await region.getAttribute('data-visible-edges'), String(edges.length));
      assert.equal((await drawn(page)).edges.length, edges.length);
      assert.match(page.url(), /[?&]auto=0(&|$)/);
      await screenshot(page, `brain-39-ingested-all-${scheme}`);
      await page.context().close();
    });
  }

  for (const scheme of SCHEMES) {
    test(`a selection's neighbours are all in the canvas beside the panel, labelled by their own nodes (${scheme})`, async () => {
      // The hub of the brain: the snapshot with the most edges.
      const degree = new Map<number, number>();
      for (const e of edges) for (const n of [e.source, e.target]) degree.set(n, (degree.get(n) ?? 0) + 1);
      const hub = [...degree].sort((a, b) => b[1] - a[1])[0]![0];
      for (const width of [1440, 1100]) {
        const page = await open(scheme, `&snapshot=snap_01INGESTED${String(hub).padStart(16, '0')}`, width);
        await page.locator('#panel-title').waitFor();
        await cameraAtRest(page);
        const placed = await page.evaluate(() => {
          const view = (window as any).snapgraphExplorer.view();
          const renderer = view.renderer;
          const canvas = document.querySelector('#graph')!.getBoundingClientRect();
          const selected = new URL(window.location.href).searchParams.get('snapshot');
          return view.neighbourhood(selected).map((node: string) => {
            const { x, y } = renderer.framedGraphToViewport(renderer.getNodeDisplayData(node));
            return { node, x: canvas.left + x, y: canvas.top + y };
          });
        });
        const canvas = (await page.locator('#graph').boundingBox())!;
        const panel = (await page.locator('#panel').boundingBox())!;
        assert.ok(placed.length > 5, `the hub has neighbours (${placed.length})`);
        for (const { node, x, y } of placed) {
          const where = `${node} at ${Math.round(x)},${Math.round(y)} (${width} px wide)`;
          assert.ok(x >= canvas.x + 40 && x <= canvas.x + canvas.width - 40, `inside the canvas across: ${where}`);
          assert.ok(y >= canvas.y + 40 && y <= canvas.y + canvas.height - 60, `inside the canvas down: ${where}`);
          assert.ok(x < panel.x, `left of the panel: ${where}`);
        }
        assert.deepEqual((await misplacedLabels(page)).wrong, [], 'every label sits by its own node');
        if (width === 1100) await screenshot(page, `brain-39-selection-${scheme}`);
        await page.context().close();
      }
    });
  }

  test('a shared link with auto=0 opens with every automatic edge, and a chosen threshold is kept', async () => {
    const page = await open('light', '&auto=0.8');
    const expected = edges.filter((e) => e.origin === 'manual' || e.strength >= 0.8).length;
    assert.equal(await page.locator('#graph-region').getAttribute('data-visible-edges'), String(expected));
    assert.equal(await page.locator('#filter-auto-strength').inputValue(), '0.8');
    await page.context().close();
  });
});
