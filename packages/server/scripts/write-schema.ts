// `npm run schema`: writes store/sqlite/schema.sql and store/postgres/schema.sql from freshly
// migrated databases (scripts/schema-dump.ts). PostgreSQL is reached at
// SNAPGRAPH_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), a role
// that may create databases; pg_dump must be on the PATH.
import { writeFileSync } from 'node:fs';
import { POSTGRES_SCHEMA_FILE, postgresSchema, SQLITE_SCHEMA_FILE, sqliteSchema } from './schema-dump.js';

const adminUrl = process.env.SNAPGRAPH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

writeFileSync(SQLITE_SCHEMA_FILE, sqliteSchema());
console.log(`wrote ${SQLITE_SCHEMA_FILE}`);
writeFileSync(POSTGRES_SCHEMA_FILE, await postgresSchema(adminUrl));
console.log(`wrote ${POSTGRES_SCHEMA_FILE}`);
