// The whole test suite (both backends, as `npm test` runs it), several times in a row, while
// CPU-bound processes compete for every core: the machine a new contributor, a CI runner
// shared with other jobs or a laptop mid-build gives us. The suite must pass on it, every time.
//
//   npm run test:stress                    3 runs, 2 competing processes
//   npm run test:stress -- --runs 5 --hogs 4
//   npm run test:stress -- test/process/shutdown.test.ts   (one file, on SNAPGRAPH_TEST_BACKEND)
//
// Stops at the first failing run; exits 1 then. Prints how long each run took.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** `--runs N` and `--hogs N` are ours; everything else goes to the test runner. */
function parseOptions(argv) {
  const options = { runs: 3, hogs: 2, passThrough: [] };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=', 2);
    if (name === '--runs' || name === '--hogs') {
      const value = Number(inline ?? argv[++i]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${name} takes a whole number`);
      options[name.slice(2)] = value;
    } else options.passThrough.push(argv[i]);
  }
  return options;
}

const { runs, hogs: hogCount, passThrough } = parseOptions(process.argv.slice(2));

// A busy loop each: as hungry for a core as a compiler, a package install or a benchmark.
const hogs = Array.from({ length: hogCount }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopHogs = () => hogs.forEach((hog) => hog.kill('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stopHogs();
    process.exit(130);
  });
}

function runSuite() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/run-tests.mjs', ...passThrough], {
      cwd: new URL('..', import.meta.url),
      stdio: 'inherit',
    });
    child.once('close', (code) => resolve(code ?? 1));
  });
}

const durations = [];
let failed = false;
try {
  for (let run = 1; run <= runs; run++) {
    console.log(`\n##### stress run ${run} of ${runs}, ${hogCount} CPU-bound processes competing #####\n`);
    const startedAt = Date.now();
    const code = await runSuite();
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    durations.push(`run ${run}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
    if (code !== 0) {
      failed = true;
      break;
    }
  }
} finally {
  stopHogs();
}
console.log(`\n##### stress: ${hogCount} competing processes on ${availableParallelism()} cores #####`);
for (const line of durations) console.log(line);
process.exit(failed ? 1 : 0);
