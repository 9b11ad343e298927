/**
 * The explorer on a brain of 10,000 snapshots and 30,000 edges (issue 23's benchmark), in
 * headless Debian Chromium against `snapgraph serve` as shipped, on SQLite:
 * - load: from "Sign in" to the graph drawn (every page fetched, the graph built, sigma's first
 *   frame), with the page's own split of that time (User Timing marks of src/graph/load.ts and
 *   src/main.ts);
 * - frames: the browser's own frame timing (requestAnimationFrame deltas) while dragging and
 *   wheel-zooming, after the layout worker has stopped.
 *
 * The brain is written straight into the database (bench/lib/seed.mjs, as the search and
 * memories benchmarks do): through the API, 40,000 POSTs took over ten minutes.
 *
 *   npm run build && node --import tsx packages/web/bench/big-brain.ts [--snapshots N --edges M --runs R] [--plan free]
 *
 * `--plan free` signs in with a Free key to the brain (60 reads a minute) instead of one whose
 * limits never bind: what a user of the README's quick start gets.
 */
import { parseArgs } from 'node:util';
import { cleanupAll } from '../../../bench/lib/cleanup.mjs';
import { seedSqlite } from '../../../bench/lib/seed.mjs';
import { prepareDatabase, snapgraphCli, startSnapgraph } from '../../../bench/lib/server.mjs';
import { launchBrowser } from '../test/helpers/browser.js';

const { values } = parseArgs({
  options: {
    snapshots: { type: 'string' },
    edges: { type: 'string' },
    runs: { type: 'string' },
    plan: { type: 'string' },
  },
});
const SNAPSHOTS = Number(values.snapshots ?? 10_000);
const EDGES = Number(values.edges ?? 30_000);
const RUNS = Number(values.runs ?? 3);

const loadavg = async () => (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ', 3).join(' ');
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

try {
  const db = prepareDatabase();
  const seeding = performance.now();
  seedSqlite(db.databaseUrl, { accountId: db.account_id, brainId: db.brain_id, snapshots: SNAPSHOTS, edges: EDGES });
  console.log(
    `seeded ${SNAPSHOTS} snapshots and ${EDGES} edges in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const key =
    values.plan === undefined
      ? db.key
      : JSON.parse(
          snapgraphCli(['keys', 'create', '--plan', values.plan, '--brain', db.brain_id, '--json'], db.databaseUrl),
        ).key;
  const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
  const browser = await launchBrowser();
  console.log(`load average at the start: ${await loadavg()}`);

  // Each run is a fresh page (fresh JS heap, no HTTP cache of the API's pages).
  for (let run = 1; run <= RUNS; run++) {
    const { page, context } = await browser.newPage({ width: 1280, height: 800 });
    // Which animation frames changed the view: sigma clears its WebGL layers at the start of
    // every render, so a clear between two frames marks a drawn frame; while the camera moves
    // over a big graph the drawn frame is moved by a CSS transform on sigma's canvases
    // (src/graph/camera-preview.ts), so a canvas's style changing marks a moved one. Frames in
    // which neither happened (waiting for the next input event) would flatter the figures and
    // are counted apart.
    await page.addInitScript(`{
      const clear = WebGL2RenderingContext.prototype.clear;
      WebGL2RenderingContext.prototype.clear = function (mask) {
        window.lastDraw_ = performance.now();
        return clear.call(this, mask);
      };
      new MutationObserver((records) => {
        if (records.some((r) => r.target.tagName === 'CANVAS')) window.lastMove_ = performance.now();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['style'] });
    }`);
    await page.goto(server.base);
    await page.getByLabel('API key').fill(key);
    const started = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('section[aria-label="Graph"][data-loaded="true"]').waitFor({ timeout: 300_000 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const loadMs = Date.now() - started;
    const region = page.locator('section[aria-label="Graph"]');
    const phases = await page.evaluate(() =>
      performance
        .getEntriesByType('measure')
        .filter((m) => m.name.startsWith('snapgraph:'))
        .map((m) => `${m.name.slice('snapgraph:'.length)} ${Math.round(m.duration)} ms`),
    );
    console.log(
      `run ${run}: first full render ${(loadMs / 1000).toFixed(2)} s (${await region.getAttribute('data-nodes')} nodes, ` +
        `${await region.getAttribute('data-edges')} edges); in page: ${phases.join(', ')}, ` +
        `brain opened to graph built and handed to sigma ${await region.getAttribute('data-load-ms')} ms; load average ${await loadavg()}`,
    );

    // Let the layout worker finish (src/graph/view.ts stops it), then pan and zoom while the page
    // records the time between its animation frames, and how many frames sigma drew.
    await page.waitForFunction(
      () => document.querySelector('#graph-region')?.getAttribute('data-layout') === 'done',
      null,
      {
        timeout: 60_000,
      },
    );
    // The page's frame rate at rest (the graph drawn, nothing moving): the ceiling this browser
    // reaches here, for the pan/zoom figures to be read against.
    const idle = await page.evaluate(`new Promise((resolve) => {
      const deltas = [];
      let last = performance.now();
      requestAnimationFrame(function tick(now) {
        deltas.push(now - last);
        last = now;
        if (deltas.length < 60) requestAnimationFrame(tick);
        else resolve(deltas.slice(1).sort((a, b) => a - b));
      });
    })`);
    console.log(
      `run ${run}: at rest ${(idle as number[]).length} frames, median ${quantile(idle as number[], 0.5).toFixed(1)} ms ` +
        `(${(1000 / quantile(idle as number[], 0.5)).toFixed(0)} fps)`,
    );
    // A string, not a function: tsx would wrap a named function in a helper the page lacks.
    await page.evaluate(`{
      window.frames_ = [];
      window.recording_ = true;
      let last = performance.now();
      requestAnimationFrame(function tick(now) {
        const drew = (window.lastDraw_ ?? 0) > last;
        window.frames_.push({ ms: now - last, drew, moved: !drew && (window.lastMove_ ?? 0) > last });
        last = now;
        if (window.recording_) requestAnimationFrame(tick);
      });
    }`);
    const box = (await page.locator('#graph').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const interacting = performance.now();
    for (let round = 0; round < 4; round++) {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      for (let step = 1; step <= 40; step++) {
        await page.mouse.move(cx + (round % 2 ? -1 : 1) * step * 6, cy + step * 3);
      }
      await page.mouse.up();
      for (let step = 0; step < 10; step++) {
        await page.mouse.wheel(0, round % 2 ? 100 : -100);
        await page.waitForTimeout(30);
      }
    }
    const interactionMs = performance.now() - interacting;
    const all = (await page.evaluate(`(() => {
      window.recording_ = false;
      return window.frames_.slice(1);
    })()`)) as { ms: number; drew: boolean; moved: boolean }[];
    const drawn = all.filter((f) => f.drew || f.moved).map((f) => f.ms);
    const moved = all.filter((f) => f.moved).length;
    const bySigma = all
      .filter((f) => f.drew)
      .map((f) => f.ms)
      .sort((a, b) => a - b);
    const every = all.map((f) => f.ms);
    drawn.sort((a, b) => a - b);
    every.sort((a, b) => a - b);
    const fps = (ms: number) => (1000 / ms).toFixed(1);
    console.log(
      `run ${run}: pan/zoom for ${(interactionMs / 1000).toFixed(1)} s: ${drawn.length} frames changed the view ` +
        `(${moved} moved the last drawing, ${bySigma.length} drawn by sigma: median ${quantile(bySigma, 0.5).toFixed(1)} ms, ` +
        `p95 ${quantile(bySigma, 0.95).toFixed(1)} ms), ` +
        `median ${quantile(drawn, 0.5).toFixed(1)} ms (${fps(quantile(drawn, 0.5))} fps), p95 ${quantile(drawn, 0.95).toFixed(1)} ms (${fps(quantile(drawn, 0.95))} fps); ` +
        `all ${every.length} frames: median ${quantile(every, 0.5).toFixed(1)} ms, p95 ${quantile(every, 0.95).toFixed(1)} ms; load average ${await loadavg()}`,
    );
    await context.close();
  }
  await browser.close();
} finally {
  await cleanupAll();
}
