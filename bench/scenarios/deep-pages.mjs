// Scenario 4: a page of 50 far down the list. With keyset pagination (`cursor`, the previous
// page's `next_cursor`) a deep page should cost about what page one costs; OFFSET is shown for
// comparison. The deep cursor comes from walking the pages once, as a client would.
import { getJson } from '../lib/http.mjs';
import { cellsWithRatio, MEASUREMENT_HEADERS, ratio, table, target } from '../lib/report.mjs';
import { pairedRatio, runInterleaved } from '../lib/rounds.mjs';
import { seedSqlite } from '../lib/seed.mjs';
import { prepareDatabase, startSnapgraph } from '../lib/server.mjs';

export const id = 'deep-pages';
const PAGE = 50;

/**
 * Follows next_cursor from page one down to `depth` rows. Returns the cursor of the page that
 * starts at `depth`, or undefined when the server does not return next_cursor at all.
 */
async function walkToDepth(base, headers, depth, timeLimitMs) {
  const deadline = Date.now() + timeLimitMs;
  const pages = Math.round(depth / PAGE);
  // Page one: an empty cursor asks for keyset pagination (next_cursor may only come then).
  let page = await getJson(`${base}/v1/snapshots?limit=${PAGE}`, headers);
  if (!('next_cursor' in page.json)) page = await getJson(`${base}/v1/snapshots?limit=${PAGE}&cursor=`, headers);
  if (!('next_cursor' in page.json)) return undefined;
  let cursor;
  for (let i = 1; i <= pages; i++) {
    cursor = page.json.next_cursor;
    if (typeof cursor !== 'string') throw new Error(`no next_cursor after page ${i} (depth ${i * PAGE})`);
    if (Date.now() > deadline) throw new Error(`walking ${pages} pages took over ${timeLimitMs / 1000} s`);
    if (i === pages) break;
    page = await getJson(`${base}/v1/snapshots?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`, headers);
  }
  return cursor;
}

export async function run(ctx) {
  const depth = ctx.quick ? 2_000 : 90_000;
  const snapshots = depth + 2_000;
  const db = prepareDatabase();
  const seeded = seedSqlite(db.databaseUrl, {
    accountId: db.account_id,
    brainId: db.brain_id,
    snapshots,
    label: 'deep pages: seeding',
  });
  const auth = { authorization: `Bearer ${db.key}` };

  let cursor;
  const walkStarted = Date.now();
  {
    const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
    try {
      cursor = await walkToDepth(server.base, auth, depth, 300_000);
      if (cursor) {
        // The walk lands where OFFSET would: the first row of the deep page is the same.
        const byCursor = await getJson(
          `${server.base}/v1/snapshots?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`,
          auth,
        );
        const byOffset = await getJson(`${server.base}/v1/snapshots?limit=${PAGE}&offset=${depth}`, auth);
        if (byCursor.json.data[0]?.id !== byOffset.json.data[0]?.id) {
          throw new Error('the deep cursor page and the OFFSET page start at different snapshots');
        }
      }
    } finally {
      await server.stop();
    }
  }
  const walkSeconds = (Date.now() - walkStarted) / 1000;
  const notice = cursor
    ? `The deep cursor came from walking ${depth / PAGE} pages of ${PAGE} in ${walkSeconds.toFixed(1)} s.`
    : '**Skipped the cursor part: the server returns no `next_cursor` yet.** Only OFFSET is measured.';
  if (!cursor)
    console.error(`[${id}] NOTICE: GET /v1/snapshots returns no next_cursor; the cursor measurement is skipped`);

  const url = (query) => (s) => `${s.base}/v1/snapshots?limit=${PAGE}${query}`;
  const ops = [
    { op: 'page one', url: url(''), headers: auth },
    ...(cursor ? [{ op: 'deep cursor', url: url(`&cursor=${encodeURIComponent(cursor)}`), headers: auth }] : []),
    { op: 'deep offset', url: url(`&offset=${depth}`), headers: auth },
  ];
  const samples = await runInterleaved({
    scenario: id,
    ...ctx,
    variants: [{ name: 'Snapgraph', start: () => startSnapgraph({ databaseUrl: db.databaseUrl }), ops }],
  });
  db.cleanup();

  const pageOne = samples['Snapgraph|page one'];
  // Cost of a deep page relative to page one: the inverse of the throughput ratio.
  const cost = (op) => pairedRatio(samples[`Snapgraph|${op}`], pageOne, 'rps', true);
  const rows = [[`page one (\`?limit=${PAGE}\`, i.e. offset=0)`, ...cellsWithRatio(pageOne, '1.00×')]];
  const targets = [];
  if (cursor) {
    const c = cost('deep cursor');
    rows.push([
      `\`cursor\` at depth ${depth.toLocaleString('en')}`,
      ...cellsWithRatio(samples['Snapgraph|deep cursor'], ratio(c)),
    ]);
    targets.push(
      target(
        '4',
        `deep cursor (depth ${depth.toLocaleString('en')}) cost vs page one`,
        ratio(c),
        '≤ 1.5×',
        c.median <= 1.5,
      ),
    );
  } else {
    targets.push(target('4', 'deep cursor cost vs page one', '—', '≤ 1.5×', null, 'no next_cursor yet'));
  }
  const o = cost('deep offset');
  rows.push([`\`offset=${depth}\``, ...cellsWithRatio(samples['Snapgraph|deep offset'], ratio(o))]);
  targets.push(target('4', `offset=${depth} cost vs offset=0 (for comparison)`, ratio(o), '—', undefined));
  return {
    sections: [
      `## 4. Deep pages\n\nOne brain of ${snapshots.toLocaleString('en')} snapshots (sample ${seeded.sampleId}). ` +
        `${notice} "Cost" is page one's req/s divided by this row's, per round.\n\n` +
        table(['request', MEASUREMENT_HEADERS[0], 'cost vs page one', ...MEASUREMENT_HEADERS.slice(1)], rows),
    ],
    targets,
  };
}
