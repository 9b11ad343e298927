// Runs every *.test.ts under test/ with node's test runner, TypeScript loaded through tsx.
// (Node 20's runner cannot glob by itself.) Extra arguments pass through, e.g. a file subset.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return findTests(path);
    return entry.name.endsWith('.test.ts') ? [relative(root, path)] : [];
  });
}

const args = process.argv.slice(2);
const files = args.some((a) => !a.startsWith('-')) ? [] : findTests(join(root, 'test')).sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...args, ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' } },
);
process.exit(result.status ?? 1);
