// `snapgraph serve` plus the tests' own job kind and its route (test/jobs/test-kinds.ts): the
// real server, started as the CLI starts it, for tests that kill it in the middle of a job.
import { loadConfig } from '../../../src/config.js';
import { startServer } from '../../../src/main.js';
import { testJobRoutes } from '../../jobs/test-kinds.js';

await startServer(loadConfig(), { extraRoutes: testJobRoutes });
