/**
 * The explorer's screenshots in docs/screenshots/, at 1440x900 in Debian's Chromium: a brain of
 * 25 snapshots at rest, a search, a selection, the same in the dark theme, and a brain of
 * 10,000 snapshots and 30,000 edges (written straight into SQLite, as bench/big-brain.ts does).
 *
 *   npm run build -w packages/web && node --import tsx packages/web/scripts/screenshots.ts [--skip-big]
 *
 * Each shot is taken once the page is still: the graph loaded, the camera's flight over, and for
 * the big brain the layout worker stopped.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cleanupAll } from '../../../bench/lib/cleanup.mjs';
import { seedSqlite } from '../../../bench/lib/seed.mjs';
import { prepareDatabase, startSnapgraph } from '../../../bench/lib/server.mjs';
import { startTestApi } from '../../server/test/helpers/harness.js';
import { launchBrowser } from '../test/helpers/browser.js';
import { seedSampleBrain } from '../test/helpers/sample-brain.js';

const OUT = join(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots');
const VIEWPORT = { width: 1440, height: 900 };
mkdirSync(OUT, { recursive: true });

const browser = await launchBrowser();
const shoot = (page: Page, name: string) => page.screenshot({ path: join(OUT, `${name}.png`) });
const loaded = (page: Page) =>
  page.locator('section[aria-label="Graph"][data-loaded="true"]').waitFor({ timeout: 300_000 });
const settle = (page: Page, ms = 700) => page.waitForTimeout(ms);

async function signIn(page: Page, base: string, key: string): Promise<void> {
  await page.goto(base);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await loaded(page);
}

try {
  const api = await startTestApi({ backgroundWork: false });
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  const key = await api.newKey();
  const ids = await seedSampleBrain(async (url, body) => (await api.request('POST', url, { key, body })).body);
  for (const scheme of ['light', 'dark'] as const) {
    const suffix = scheme === 'dark' ? '-dark' : '';
    const context = await browser.browser.newContext({ viewport: VIEWPORT, colorScheme: scheme });
    const page = await context.newPage();
    await signIn(page, base, key.key);
    await settle(page);
    await shoot(page, `brain-25${suffix}`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('sleep');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await page.locator('#results li').first().waitFor();
    await settle(page);
    await shoot(page, `search${suffix}`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await page.goto(`${base}/?brain=${key.brainId}&snapshot=${ids.sleep}`);
    await loaded(page);
    await page.getByRole('region', { name: 'Snapshot' }).getByRole('heading', { name: 'Sleep first' }).waitFor();
    await settle(page);
    await shoot(page, `selection${suffix}`);
    await context.close();
  }
  await api.close();

  if (!process.argv.includes('--skip-big')) {
    const db = prepareDatabase();
    seedSqlite(db.databaseUrl, { accountId: db.account_id, brainId: db.brain_id, snapshots: 10_000, edges: 30_000 });
    const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
    const { page, context } = await browser.newPage(VIEWPORT);
    await signIn(page, server.base, db.key);
    await page.waitForFunction(
      () => document.querySelector('#graph-region')?.getAttribute('data-layout') === 'done',
      null,
      {
        timeout: 120_000,
      },
    );
    await settle(page, 1500);
    await shoot(page, 'brain-10000');
    await context.close();
  }
  // Palette PNGs, a third of the size, where Debian's pngquant is installed (apt-get install pngquant).
  const pngs = readdirSync(OUT)
    .filter((name) => name.endsWith('.png'))
    .map((name) => join(OUT, name));
  const quantized = spawnSync('pngquant', ['--quality', '75-95', '--force', '--ext', '.png', ...pngs]);
  if (quantized.error) console.warn('pngquant not found: the screenshots are kept as Chromium wrote them');
  console.log(`screenshots in ${OUT}`);
} finally {
  await browser.close();
  await cleanupAll();
}
