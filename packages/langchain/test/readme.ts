import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { liveSuite } from './support.js';

/** The README's first ```js block: the example it promises runs as written. */
export function readmeExample(readmePath: string): string {
  const block = /```js\n([\s\S]*?)```/.exec(readFileSync(readmePath, 'utf8'));
  if (!block) throw new Error(`${readmePath} has no js example`);
  return block[1]!;
}

/**
 * Runs ES module source with node as a user would, from `cwd` (where its imports resolve), with
 * the service's address and key in the environment; answers what it printed. Not execFileSync:
 * the server answering it runs in the test's own process.
 */
export async function runExample(code: string, cwd: string, env: { url: string; key: string }): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], {
    cwd,
    env: { PATH: process.env.PATH ?? '', SNAPGRAPH_URL: env.url, SNAPGRAPH_API_KEY: env.key },
    timeout: 120_000,
  });
  return stdout;
}

/** What the LangChain README says its example prints. */
export function assertLangchainOutput(out: string): void {
  const lines = out.trim().split('\n');
  assert.match(lines[0]!, /^Compounding snap_\S+ 0\.\d\d$/);
  assert.equal(lines[1], 'human: I moved to Lyon | ai: Noted: you live in Lyon now.');
  assert.equal(lines[2], 'The user prefers short answers');
}

/** What the AI SDK README says its example prints. */
export function assertAiSdkOutput(out: string): void {
  assert.deepEqual(out.trim().split('\n'), ['The user lives in Lyon true', 'true true']);
}

/**
 * A suite that runs the README of the package in `packageDir` as written, against a live server,
 * through the workspace's build (`npm run build` first), and checks what it prints.
 */
export function readmeSuite(packageDir: string, assertOutput: (out: string) => void): void {
  describe('README example', () => {
    const live = liveSuite();

    it('runs and prints what the README says it prints', async () => {
      const out = await runExample(readmeExample(`${packageDir}/README.md`), packageDir, {
        url: live.server.baseUrl,
        key: live.key.key,
      });
      assertOutput(out);
    });
  });
}
