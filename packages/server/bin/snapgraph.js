#!/usr/bin/env node
// The built CLI; `npm install` builds it (the root package's `prepare` script).
import { setFlagsFromString } from 'node:v8';

// V8 allocates objects from "allocation sites" whose objects tended to survive straight into
// the old generation. In about a third of server starts it chose sites of per-request objects,
// and from then on every request's garbage went to the old generation: scavenges of 4–5 ms
// instead of 1, a full collection every 0.6 s, 20% fewer requests per second for the life of
// the process (docs/decisions.md). Switched off before the application allocates anything,
// hence the dynamic import below.
setFlagsFromString('--no-allocation-site-pretenuring');
const { runCli } = await import('../dist/cli/index.js');

process.exitCode = await runCli(process.argv.slice(2));
