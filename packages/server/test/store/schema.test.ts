import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { postgresAdminUrl, testBackend } from '../helpers/database.js';
import { POSTGRES_SCHEMA_FILE, postgresSchema, SQLITE_SCHEMA_FILE, sqliteSchema } from '../../scripts/schema-dump.js';

const STALE = 'the migrations and the checked-in schema disagree: run `npm run schema` and commit the result';

function hasPgDump(): boolean {
  try {
    execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('the checked-in schema.sql is what the migrations make', () => {
  it('SQLite: store/sqlite/schema.sql', { skip: testBackend !== 'sqlite' }, () => {
    assert.equal(sqliteSchema(), readFileSync(SQLITE_SCHEMA_FILE, 'utf8'), STALE);
  });

  it(
    'PostgreSQL: store/postgres/schema.sql',
    { skip: testBackend !== 'postgres' ? true : hasPgDump() ? false : 'pg_dump is not on the PATH' },
    async () => {
      assert.equal(await postgresSchema(postgresAdminUrl), readFileSync(POSTGRES_SCHEMA_FILE, 'utf8'), STALE);
    },
  );
});
