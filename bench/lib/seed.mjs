// Bulk seeding straight into a migrated database (after `snapgraph migrate` or `keys create`):
// N snapshots and M edges in one brain, in large transactions, far faster than through the API.
// Ids are time-ordered like Snapgraph's (`snap_` + 26 Crockford base32 characters) and
// created_at is ISO 8601 with milliseconds, one millisecond apart, so "newest first" is well
// defined. Edges link snapshot i to i+1, i+2, … (wrapping), so no pair repeats. Per-brain
// counts that the schema keeps with triggers (SQLite migration 2) follow these inserts too.
import Database from 'better-sqlite3';
import pg from 'pg';
import { progress } from './progress.mjs';
import { isoTime } from '../../packages/server/dist/clock.js';
import { newId } from '../../packages/server/dist/ids.js';
import { EDGE_COLUMNS, SNAPSHOT_COLUMNS } from '../../packages/server/dist/store/columns.js';
import { EDGE_TYPES, SNAPSHOT_TYPES } from '../../packages/server/dist/model.js';

// The schema's own lists, from the built server (the bench measures the build anyway).
export { SNAPSHOT_COLUMNS };
const TYPES = SNAPSHOT_TYPES;

/**
 * Snapshot i as a row (emotion and tags as JSON text), of a typical size (~600 bytes as JSON).
 * `text(i)`, when given, supplies its name, core and tags ({ name, core, tags: [] }).
 */
function snapshotRow(i, ms, brainId, text) {
  const at = isoTime(ms);
  const row = {
    id: newId('snap', ms),
    brain_id: brainId,
    name: `Compounding ${i}`,
    core: 'Small consistent gains compound over time; the habit matters more than any single effort.',
    type: TYPES[i % TYPES.length],
    one_liner: i % 2 === 0 ? 'Tiny gains, repeated, win.' : null,
    story: i % 5 === 0 ? 'Noticed after a year of daily practice that the early weeks looked like nothing.' : null,
    moment: null,
    emotion: i % 4 === 0 ? '{"valence":0.6,"label":"calm"}' : null,
    source: null,
    trigger_pattern: null,
    method: i % 3 === 0 ? 'Pick one small action and repeat it daily.' : null,
    steps: null,
    filter: null,
    challenge: i % 3 === 0 ? 'Most gains do not persist.' : null,
    break_test: null,
    risks: null,
    proof: null,
    confidence: ((i * 37) % 101) / 100,
    significance_score: ((i * 53) % 101) / 100,
    tags: '["habits","growth"]',
    source_type: 'manual',
    source_id: null,
    created_at: at,
    updated_at: at,
  };
  if (text) {
    const { name, core, tags } = text(i);
    Object.assign(row, { name, core, tags: JSON.stringify(tags) });
  }
  return row;
}

function edgeRow(j, ms, brainId, ids) {
  const n = ids.length;
  const source = j % n;
  const target = (source + 1 + Math.floor(j / n)) % n;
  const at = isoTime(ms);
  return {
    id: newId('edge', ms),
    brain_id: brainId,
    source_id: ids[source],
    target_id: ids[target],
    edge_type: EDGE_TYPES[j % EDGE_TYPES.length],
    strength: ((j * 29) % 101) / 100,
    label: j % 2 === 0 ? 'reinforces' : null,
    origin: 'manual',
    created_at: at,
    updated_at: at,
  };
}

function checkCounts(snapshots, edges) {
  if (edges > 0 && snapshots < 2) throw new Error('edges need at least two snapshots');
  // With offsets 1..ceil(edges/snapshots) below half the ring, no pair (or reversed pair) repeats.
  if (Math.ceil(edges / Math.max(snapshots, 1)) >= snapshots / 2) throw new Error('too many edges for the snapshots');
}

/** The time plan: snapshots first, then edges, all in the past, one millisecond apart. */
function timeline(snapshots, edges) {
  const start = Date.now() - snapshots - edges - 60_000;
  return { snapshotAt: (i) => start + i, edgeAt: (j) => start + snapshots + j };
}

/**
 * Seeds an SQLite file. Returns { snapshotIds, edgeCount, sampleId } where sampleId is a
 * snapshot in the middle of the brain that has emotion and tags (a typical GET target).
 */
export function seedSqlite(path, { accountId, brainId, snapshots, edges = 0, batch = 25_000, label = 'seed', text }) {
  checkCounts(snapshots, edges);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    // Seeding is not the workload: no fsync per commit, and no foreign-key look-ups per row
    // (the generator only references snapshots it has already written).
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -262144'); // 256 MiB
    const { snapshotAt, edgeAt } = timeline(snapshots, edges);
    const insertSnapshot = db.prepare(
      `INSERT INTO snapshots (account_id, ${SNAPSHOT_COLUMNS.join(', ')}) VALUES (?${', ?'.repeat(SNAPSHOT_COLUMNS.length)})`,
    );
    const insertEdge = db.prepare(
      `INSERT INTO edges (account_id, ${EDGE_COLUMNS.join(', ')}) VALUES (?${', ?'.repeat(EDGE_COLUMNS.length)})`,
    );
    const ids = new Array(snapshots);
    const bar = progress(`${label}: ${snapshots} snapshots, ${edges} edges`, snapshots + edges);
    const snapshotBatch = db.transaction((from, to) => {
      for (let i = from; i < to; i++) {
        const row = snapshotRow(i, snapshotAt(i), brainId, text);
        ids[i] = row.id;
        insertSnapshot.run(accountId, ...SNAPSHOT_COLUMNS.map((c) => row[c]));
      }
    });
    const edgeBatch = db.transaction((from, to) => {
      for (let j = from; j < to; j++) {
        const row = edgeRow(j, edgeAt(j), brainId, ids);
        insertEdge.run(accountId, ...EDGE_COLUMNS.map((c) => row[c]));
      }
    });
    for (let from = 0; from < snapshots; from += batch) {
      const to = Math.min(from + batch, snapshots);
      snapshotBatch(from, to);
      bar.tick(to - from);
    }
    for (let from = 0; from < edges; from += batch) {
      const to = Math.min(from + batch, edges);
      edgeBatch(from, to);
      bar.tick(to - from);
    }
    // Into the database file and onto the disk now, so that the first server start does not
    // wait behind the write-back of what seeding left in the page cache.
    db.pragma('synchronous = FULL');
    db.pragma('wal_checkpoint(TRUNCATE)');
    bar.end();
    return { snapshotIds: ids, edgeCount: edges, sampleId: ids[sampleIndex(snapshots)] };
  } finally {
    db.close();
  }
}

/** A snapshot near the middle whose index is a multiple of 4, so that it has an emotion. */
const sampleIndex = (snapshots) => Math.max(0, Math.floor(snapshots / 8) * 4);

/** Seeds a PostgreSQL database through multi-row inserts (one JSON parameter per batch). */
export async function seedPostgres(
  url,
  { accountId, brainId, snapshots, edges = 0, batch = 5_000, label = 'seed', text },
) {
  checkCounts(snapshots, edges);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET synchronous_commit = off');
    const { snapshotAt, edgeAt } = timeline(snapshots, edges);
    const ids = new Array(snapshots);
    const bar = progress(`${label}: ${snapshots} snapshots, ${edges} edges (PostgreSQL)`, snapshots + edges);
    const insert = async (table, rows) => {
      const columns = table === 'snapshots' ? ['account_id', ...SNAPSHOT_COLUMNS] : ['account_id', ...EDGE_COLUMNS];
      await client.query(
        `INSERT INTO ${table} (${columns.join(', ')})
         SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::${table}, $1::json)`,
        [JSON.stringify(rows)],
      );
      bar.tick(rows.length);
    };
    for (let from = 0; from < snapshots; from += batch) {
      const rows = [];
      for (let i = from; i < Math.min(from + batch, snapshots); i++) {
        const row = snapshotRow(i, snapshotAt(i), brainId, text);
        ids[i] = row.id;
        row.account_id = accountId;
        // json columns take the values themselves, not their text.
        row.emotion = row.emotion === null ? null : JSON.parse(row.emotion);
        row.tags = JSON.parse(row.tags);
        rows.push(row);
      }
      await insert('snapshots', rows);
    }
    for (let from = 0; from < edges; from += batch) {
      const rows = [];
      for (let j = from; j < Math.min(from + batch, edges); j++) {
        rows.push({ ...edgeRow(j, edgeAt(j), brainId, ids), account_id: accountId });
      }
      await insert('edges', rows);
    }
    await client.query('ANALYZE');
    bar.end();
    return { snapshotIds: ids, edgeCount: edges, sampleId: ids[sampleIndex(snapshots)] };
  } finally {
    await client.end();
  }
}

/** Account and brain rows for a database made by `snapgraph migrate` alone (no key). */
export function createBrainSqlite(path, { accountId = newId('acct'), brainId = newId('brain') } = {}) {
  const db = new Database(path);
  try {
    const at = isoTime(Date.now());
    db.prepare('INSERT INTO accounts (id, created_at) VALUES (?, ?)').run(accountId, at);
    db.prepare('INSERT INTO brains (id, account_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(
      brainId,
      accountId,
      'bench',
      at,
      at,
    );
  } finally {
    db.close();
  }
  return { accountId, brainId };
}
