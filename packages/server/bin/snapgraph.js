#!/usr/bin/env node
// The built CLI; `npm install` builds it (the root package's `prepare` script).
import { runCli } from '../dist/cli/index.js';

process.exitCode = await runCli(process.argv.slice(2));
