// What the rate limiter costs on GET /v1/snapshots/:id; the same as `npm run bench -- --only ratelimit`.
//
//   node bench/ratelimit.mjs [--quick] [--rounds N] [--seconds S]
import { runSuite } from './lib/suite.mjs';

process.exitCode = await runSuite({ defaults: ['ratelimit'] });
