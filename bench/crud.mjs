// One-snapshot GET and snapshot create on each storage backend (SQLite, PostgreSQL) and against
// Fastify + pg; the same as `npm run bench -- --only postgres`.
//
//   node bench/crud.mjs [--quick] [--rounds N] [--seconds S]
import { runSuite } from './lib/suite.mjs';

process.exitCode = await runSuite({ defaults: ['postgres'] });
