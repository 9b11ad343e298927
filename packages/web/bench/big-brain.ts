/**
 * The explorer on a brain of 10,000 snapshots and 30,000 edges (issue 23's benchmark), in
 * headless Debian Chromium against the real server on SQLite:
 * - load: from "Sign in" to the graph drawn (every page fetched, the graph built, sigma's first frame);
 * - frames: the browser's own frame timing (requestAnimationFrame deltas) while panning and zooming.
 *
 *   npm run build && node --import tsx packages/web/bench/big-brain.ts [--snapshots N --edges M]
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startTestApi } from '../../server/test/helpers/harness.js';
import { launchBrowser } from '../test/helpers/browser.js';

const { values } = parseArgs({ options: { snapshots: { type: 'string' }, edges: { type: 'string' } } });
const SNAPSHOTS = Number(values.snapshots ?? 10_000);
const EDGES = Number(values.edges ?? 30_000);
const TYPES = ['Belief', 'Model', 'Rule', 'Conviction', 'Principle'];
const EDGE_TYPES = ['supports', 'contradicts', 'elaborates', 'caused_by', 'evolved_from', 'related_to'];

const api = await startTestApi({ backgroundWork: false });
await api.app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
const key = await api.newKey({ plan: 'enterprise' });

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const seeding = Date.now();
const ids: string[] = [];
for (let i = 0; i < SNAPSHOTS; i += 50) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(50, SNAPSHOTS - i) }, (_, j) =>
      api.request('POST', '/v1/snapshots', {
        key,
        body: {
          name: `Idea ${i + j}`,
          core: `Core of idea ${i + j}`,
          type: TYPES[(i + j) % 5],
          tags: [`t${(i + j) % 20}`],
        },
      }),
    ),
  );
  for (const response of batch) ids.push(response.body.data.id);
}
const pairs = new Set<string>();
while (pairs.size < EDGES) {
  // Mostly local links (clusters, as real brains have), some long ones.
  const a = Math.floor(random() * SNAPSHOTS);
  const b = random() < 0.8 ? (a + 1 + Math.floor(random() * 30)) % SNAPSHOTS : Math.floor(random() * SNAPSHOTS);
  if (a !== b) pairs.add(`${a} ${b} ${EDGE_TYPES[Math.floor(random() * 6)]}`);
}
const list = [...pairs];
for (let i = 0; i < list.length; i += 50) {
  await Promise.all(
    list.slice(i, i + 50).map((pair) => {
      const [a, b, edge_type] = pair.split(' ');
      return api.request('POST', '/v1/edges', {
        key,
        body: {
          source_id: ids[Number(a)],
          target_id: ids[Number(b)],
          edge_type,
          strength: Math.round(random() * 100) / 100,
        },
      });
    }),
  );
}
console.log(`seeded ${SNAPSHOTS} snapshots and ${EDGES} edges in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

const browser = await launchBrowser();
try {
  const { page } = await browser.newPage({ width: 1280, height: 800 });
  await page.goto(baseUrl);
  await page.getByLabel('API key').fill(key.key);
  const started = Date.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('section[aria-label="Graph"][data-loaded="true"]').waitFor({ timeout: 120_000 });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const loadMs = Date.now() - started;
  const region = page.locator('section[aria-label="Graph"]');
  console.log(
    `first full render: ${(loadMs / 1000).toFixed(2)} s (${await region.getAttribute('data-nodes')} nodes, ` +
      `${await region.getAttribute('data-edges')} edges; in-page load ${await region.getAttribute('data-load-ms')} ms)`,
  );

  // Let the layout worker finish, then pan and zoom while the page records its frame times.
  await page.waitForTimeout(9_000);
  await page.evaluate(() => {
    const w = window as unknown as { frames_: number[] };
    w.frames_ = [];
    let last = performance.now();
    const tick = (now: number) => {
      w.frames_.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const box = (await page.locator('#graph').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  for (let round = 0; round < 3; round++) {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let step = 0; step < 30; step++) await page.mouse.move(cx + step * 8, cy + step * 4);
    await page.mouse.up();
    for (let step = 0; step < 10; step++) await page.mouse.wheel(0, round % 2 ? 120 : -120);
  }
  const frames = await page.evaluate(() => (window as unknown as { frames_: number[] }).frames_.slice(1));
  frames.sort((a, b) => a - b);
  const median = frames[Math.floor(frames.length / 2)]!;
  const p95 = frames[Math.floor(frames.length * 0.95)]!;
  console.log(
    `pan/zoom: ${frames.length} frames, median ${median.toFixed(1)} ms (${(1000 / median).toFixed(0)} fps), p95 ${p95.toFixed(1)} ms (${(1000 / p95).toFixed(0)} fps)`,
  );
} finally {
  await browser.close();
  await api.close();
}
