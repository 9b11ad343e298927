// A node:test reporter that prints, once the run ends, how long each test file's tests took,
// slowest first: the sum of the durations of the file's top-level tests and suites (they run
// one after another within a file), so the loading of the file itself is not counted. Used by
// run-tests.mjs beside the spec reporter; see docs/performance.md, "Test suite time".
import { relative } from 'node:path';

export default async function* fileTimes(source) {
  const seconds = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || !file) continue;
    const name = relative(process.cwd(), file);
    seconds.set(name, (seconds.get(name) ?? 0) + (details?.duration_ms ?? 0) / 1000);
  }
  const rows = [...seconds].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, s]) => sum + s, 0);
  for (const [name, s] of rows) yield `${s.toFixed(1).padStart(7)} s  ${name}\n`;
  yield `${total.toFixed(1).padStart(7)} s  in all (${rows.length} files)\n`;
}
