import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApi, type TestApi, type TestKey } from '../../server/test/helpers/harness.js';
import { PREVIEW_FROM_NODES } from '../src/graph/camera-preview.js';
import { browserSkipReason, enforceStrictCsp, launchBrowser, type TestBrowser } from './helpers/browser.js';

/**
 * A big graph (PREVIEW_FROM_NODES snapshots) moves as a drawn picture while the camera moves
 * (src/graph/camera-preview.ts): sigma's layers follow the pointer by a CSS transform, the
 * layer that reads the pointer stays put, and the graph is drawn for real, with no transform
 * left, once the camera rests.
 */
const skip = browserSkipReason();

describe('web explorer: moving a big graph', { skip }, () => {
  let api: TestApi;
  let key: TestKey;
  let baseUrl: string;
  let browser: TestBrowser;

  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    key = await api.newKey({ plan: 'enterprise' });
    for (let i = 0; i < PREVIEW_FROM_NODES; i++) {
      const res = await api.request('POST', '/v1/snapshots', { key, body: { name: `Point ${i}`, core: `Point ${i}` } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await api?.close();
  });

  /**
   * Records every transform set on sigma's canvases from now on, with the layer's class: on a
   * loaded machine a preview may be drawn over (the camera rested) before the test looks.
   */
  const recordTransforms = (page: Page) =>
    page.evaluate(`{
      window.transforms_ = [];
      new MutationObserver((records) => {
        for (const r of records) window.transforms_.push({ layer: r.target.className, transform: r.target.style.transform });
      }).observe(document.querySelector('#graph'), { subtree: true, attributes: true, attributeFilter: ['style'] });
    }`);
  const recorded = (page: Page) =>
    page.evaluate(() => (window as any).transforms_ as { layer: string; transform: string }[]);
  const translation = (transform: string) => {
    const match = /translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)/.exec(transform);
    assert.ok(match, `a translate and scale: ${transform}`);
    return { x: Number(match[1]), y: Number(match[2]), scale: Number(match[3]) };
  };

  test('under a strict Content-Security-Policy the layout worker runs and nothing is refused', async () => {
    const { page, context } = await browser.newPage();
    const violations = await enforceStrictCsp(page);
    const position = `(() => {
      const graph = window.snapgraphExplorer.view().graph;
      const node = graph.nodes()[0];
      return [graph.getNodeAttribute(node, 'x'), graph.getNodeAttribute(node, 'y')];
    })()`;
    // The first node's place when the graph is shown, read in the page as it happens: read from
    // the test after data-loaded, a busy machine could let the worker finish first.
    await page.addInitScript(`new MutationObserver((changes, observer) => {
      if (document.querySelector('section[aria-label="Graph"][data-loaded="true"]')) {
        window.placeWhenLoaded_ = ${position};
        observer.disconnect();
      }
    }).observe(document, { subtree: true, attributeFilter: ['data-loaded'] });`);
    await page.goto(baseUrl);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('section[aria-label="Graph"][data-loaded="true"]').waitFor({ timeout: 60_000 });
    const before = await page.evaluate('window.placeWhenLoaded_');
    assert.ok(Array.isArray(before), 'the place was read when the graph was shown');
    await page.locator('section[aria-label="Graph"][data-layout="done"]').waitFor({ timeout: 60_000 });
    assert.notDeepEqual(await page.evaluate(position), before, 'the worker moved the nodes');
    assert.deepEqual(await violations(), []);
    await context.close();
  });

  test('a drag moves the drawn layers with the pointer, then the graph is drawn in place', async () => {
    const { page, context } = await browser.newPage();
    await page.goto(baseUrl);
    await page.getByLabel('API key').fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const region = page.locator('section[aria-label="Graph"][data-loaded="true"]');
    await region.waitFor({ timeout: 60_000 });
    assert.equal(await region.getAttribute('data-nodes'), String(PREVIEW_FROM_NODES));
    await page.locator('section[aria-label="Graph"][data-layout="done"]').waitFor({ timeout: 60_000 });

    await recordTransforms(page);
    const box = (await page.locator('#graph').boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let step = 1; step <= 10; step++) await page.mouse.move(x + step * 12, y + step * 5);
    const moving = (await recorded(page)).filter((r) => r.transform !== '');
    assert.ok(moving.length >= 1, 'the layers were moved');
    for (const { layer, transform } of moving) {
      assert.ok(!layer.includes('mouse'), 'the layer that reads the pointer stays put');
      // Moved as the pointer was (12 px right, 5 down a step), by the steps since the graph was
      // last drawn: on a busy machine a pause in the drag may have drawn it on the way.
      const t = translation(transform);
      assert.ok(t.x >= 11 && t.x <= 121 && Math.abs(t.y - (t.x * 5) / 12) <= 1, `${layer} follows: ${transform}`);
      assert.equal(t.scale, 1);
    }
    await page.mouse.up();
    await page.waitForFunction(
      () => [...document.querySelectorAll<HTMLCanvasElement>('#graph canvas')].every((c) => c.style.transform === ''),
      undefined,
      { timeout: 15_000 },
    );

    // A wheel notch zooms: the picture scales while the camera moves, then is drawn in place.
    await recordTransforms(page);
    await page.mouse.wheel(0, -100);
    await page.waitForFunction(
      () => ((window as any).transforms_ as { transform: string }[]).some((r) => /scale\((?!1\))/.test(r.transform)),
      undefined,
      { timeout: 10_000 },
    );
    await page.waitForFunction(
      () => [...document.querySelectorAll<HTMLCanvasElement>('#graph canvas')].every((c) => c.style.transform === ''),
      undefined,
      { timeout: 15_000 },
    );
    await context.close();
  });
});
