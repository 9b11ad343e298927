import type { Migration } from '../migration.js';
import type { SqliteDatabase } from './open-database.js';

/** Applies the migrations not yet applied, each in its own transaction; returns how many ran. */
export function runSqliteMigrations(db: SqliteDatabase, migrations: Migration[]): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const isApplied = db.prepare<[number], { version: number }>(
    'SELECT version FROM schema_migrations WHERE version = ?',
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  let applied = 0;
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    // IMMEDIATE takes the write lock first, so two processes migrating at once apply each
    // version exactly once: the second sees the first's row and skips.
    const apply = db.transaction(() => {
      if (isApplied.get(migration.version)) return false;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      return true;
    });
    if (apply.immediate()) applied++;
  }
  return applied;
}
