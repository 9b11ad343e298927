// The benchmark suite: every scenario against its baselines, in one run.
//
//   npm run bench                  # full run (3 rounds of 5 s per measurement), a few minutes
//   npm run bench -- --quick       # smoke run, as CI does (1 round of 1 s, no warm-up)
//   npm run bench -- --only reads,writes --rounds 5 --seconds 8
//
// Writes the report to stdout and to bench/results/<date>.md (git-ignored).
import { runSuite } from './lib/suite.mjs';

process.exitCode = await runSuite({ save: true });
