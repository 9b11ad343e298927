// The served OpenAPI document read by third-party tools, as a new user would (issue 22): Redocly
// CLI's recommended rules find no error, and the example calls of the README and of docs/api.md
// (where the README's examples moved) compile against types that openapi-typescript generates
// from the document, through openapi-fetch.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { startTestApi, type TestApi } from '../helpers/harness.js';
import { readmeCalls, readmeCallsModule } from '../helpers/readme-calls.js';
import { call } from './support.js';
import { testBackend } from '../helpers/database.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const README = join(repoRoot, 'README.md');
const API_DOC = join(repoRoot, 'docs', 'api.md');

/** A package's bin script, found through its package.json (bins are not exported). */
function binOf(name: string, bin: string): string {
  const manifest = require.resolve(`${name}/package.json`);
  const bins = JSON.parse(readFileSync(manifest, 'utf8')).bin as Record<string, string>;
  return join(dirname(manifest), bins[bin] as string);
}

// The same on either store: the SQLite pass runs it (scripts/run-tests.mjs, ONE_BACKEND_ONLY).
describe('the OpenAPI document in third-party tools', { skip: testBackend !== 'sqlite' }, () => {
  let api: TestApi;
  let doc: any;
  let dir: string;
  let docPath: string;

  before(async () => {
    api = await startTestApi();
    const response = await call(api, 'GET', '/v1/openapi.json');
    assert.equal(response.status, 200);
    doc = response.body;
    dir = mkdtempSync(join(tmpdir(), 'snapgraph-openapi-'));
    docPath = join(dir, 'openapi.json');
    writeFileSync(docPath, JSON.stringify(doc, null, 2));
  });
  after(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Redocly CLI lint, recommended rules: no error', async () => {
    const lint = await run(
      process.execPath,
      [binOf('@redocly/cli', 'redocly'), 'lint', '--extends=recommended', '--format=json', docPath],
      {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((failure: { stdout?: string; stderr?: string }) => failure);
    const report = JSON.parse(String(lint.stdout));
    const problems = report.problems.map(
      (p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`,
    );
    const errors = problems.filter((p: string) => p.startsWith('error'));
    assert.deepEqual(errors, [], 'Redocly errors');
    assert.equal(report.totals.errors, 0);
    // Warnings are allowed, and known: the health checks answer no 4XX (they need no key and
    // take no input), and 405 MethodNotAllowed is a component no operation can declare.
    const unexpected = problems.filter(
      (p: string) =>
        !/operation-4xx-response: .* at #\/paths\/~1(healthz|readyz)\//.test(p) &&
        !/no-unused-components: Component: "MethodNotAllowed"/.test(p),
    );
    assert.deepEqual(unexpected, [], 'warnings beyond the known ones');
  });

  it("the README's and docs/api.md's calls compile against openapi-typescript types through openapi-fetch", async () => {
    const fromReadme = readmeCalls(README, doc);
    assert.ok(fromReadme.length >= 2, 'the quick start makes a snapshot and searches');
    const calls = [...fromReadme, ...readmeCalls(API_DOC, doc)];
    assert.ok(calls.length >= 15, `${calls.length} calls read from the README and docs/api.md`);
    // The calls the issue found failing: lists with some of their defaulted parameters.
    for (const path of ['/v1/snapshots', '/v1/edges', '/v1/brains', '/v1/snapshots/search']) {
      assert.ok(
        calls.some((c) => c.method === 'GET' && c.path === path),
        `the README or docs/api.md lists through GET ${path}`,
      );
    }

    const types = astToString(await openapiTS(doc));
    writeFileSync(join(dir, 'schema.d.ts'), types);
    writeFileSync(join(dir, 'readme-calls.ts'), readmeCallsModule(calls, './schema.js'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['readme-calls.ts'],
      }),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    // openapi-fetch, as the project installed it.
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');

    const compiled = await run(process.execPath, [binOf('typescript', 'tsc'), '-p', dir], { cwd: dir }).catch(
      (failure: { stdout?: string }) => failure,
    );
    assert.equal(String(compiled.stdout ?? '').trim(), '', 'tsc --noEmit finds no error in the documented calls');
  });
});
