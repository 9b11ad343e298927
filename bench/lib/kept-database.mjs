// A SQLite database a quality benchmark loads once and keeps (outside the repository, under the
// system's temporary directory), so that a ranking change is measured by asking the questions
// again without loading the data again. Each run copies the kept file and serves the copy: a run
// never changes what the next one reads. The kept load is found by a name that says what was
// loaded (the data's size and time, the load's options); `--reload` loads it again (after a
// change to how memories are written, e.g. supersession rules or migrations).
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, postgresUrlOf } from './postgres.mjs';
import { snapgraphCli, tempDir } from './server.mjs';

/** The folder the kept loads live in. */
export const KEEP_ROOT = join(tmpdir(), 'snapgraph-bench-kept');

/** A name for a load of `dataDir` with `options`: changes when the data or the options change. */
export function keptName(label, dataDir, options) {
  const stamp = ['turns.jsonl', 'queries.jsonl'].map((f) => {
    const s = statSync(join(dataDir, f));
    return `${s.size}:${s.mtimeMs}`;
  });
  const hash = createHash('sha256')
    .update(JSON.stringify([dataDir, stamp, options]))
    .digest('hex')
    .slice(0, 12);
  return `${label}-${hash}`;
}

/**
 * A database to serve: the kept copy of a load when there is one (with what the load returned),
 * else a fresh one that `load(db)` fills, kept afterwards when `keep()` is called. Returns
 * { db, manifest, fresh, keep(manifest) }; db is as prepareDatabase's.
 */
export function keptDatabase(name, { reload = false } = {}) {
  const dir = join(KEEP_ROOT, name);
  const kept = join(dir, 'bench.db');
  const manifestFile = join(dir, 'manifest.json');
  const { dir: work, remove } = tempDir();
  const url = join(work, 'bench.db');
  if (!reload && existsSync(manifestFile) && existsSync(kept)) {
    copyFileSync(kept, url);
    if (existsSync(`${kept}-wal`)) copyFileSync(`${kept}-wal`, `${url}-wal`);
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    return { db: { dir: work, databaseUrl: url, ...manifest.key, cleanup: remove }, manifest, fresh: false, keep() {} };
  }
  const key = unlimitedKey(url);
  return {
    db: { dir: work, databaseUrl: url, ...key, cleanup: remove },
    manifest: undefined,
    fresh: true,
    /** Keeps the loaded file (call after the server that wrote it stopped, so it is checkpointed). */
    keep(manifest) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      copyFileSync(url, kept);
      if (existsSync(`${url}-wal`)) copyFileSync(`${url}-wal`, `${kept}-wal`);
      writeFileSync(manifestFile, JSON.stringify({ ...manifest, key }));
    },
  };
}

/**
 * keptDatabase on PostgreSQL: the load is kept as a database named after it (its manifest beside
 * the SQLite loads'), served as it is on later runs (searches write nothing a ranking reads).
 */
export async function keptPostgresDatabase(name, { reload = false } = {}) {
  const dir = join(KEEP_ROOT, `${name}-postgres`);
  const manifestFile = join(dir, 'manifest.json');
  const database = `snapgraph_kept_${name.toLowerCase().replace(/[^a-z0-9]/g, '_')}`;
  const url = postgresUrlOf(database);
  const { dir: work, remove } = tempDir();
  const exists = (await admin(`SELECT 1 FROM pg_database WHERE datname = '${database}'`)).rows.length > 0;
  if (!reload && exists && existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    return { db: { dir: work, databaseUrl: url, ...manifest.key, cleanup: remove }, manifest, fresh: false, keep() {} };
  }
  rmSync(dir, { recursive: true, force: true });
  await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${database}`);
  const key = unlimitedKey(url);
  return {
    db: { dir: work, databaseUrl: url, ...key, cleanup: remove },
    manifest: undefined,
    fresh: true,
    keep(manifest) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(manifestFile, JSON.stringify({ ...manifest, key }));
    },
  };
}

/** A key on the database at `url` whose rate limits no bench reaches. */
function unlimitedKey(url) {
  return JSON.parse(
    snapgraphCli(
      ['keys', 'create', '--plan', 'enterprise', '--rpm', '1000000000', '--burst', '1000000000', '--json'],
      url,
    ),
  );
}
