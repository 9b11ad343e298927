import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startLiveServer, type LiveServer } from './live-server.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = { stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], encoding: 'utf8' as const };

/** `npm pack` as a user would publish it, installed into a fresh project and used from there. */
describe('the packed tarball', () => {
  let dir: string;
  let tarball: string;
  let server: LiveServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snapgraph-client-pack-'));
    const out = execFileSync(npm, ['pack', '--json', '--pack-destination', dir], { ...quiet, cwd: packageDir });
    tarball = join(dir, (JSON.parse(out) as { filename: string }[])[0]!.filename);
    server = await startLiveServer();
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds the build, the types, README and CHANGELOG, and no tests or sources', () => {
    const files = execFileSync('tar', ['-tzf', tarball], quiet).split('\n').filter(Boolean);
    for (const expected of [
      'package/dist/index.js',
      'package/dist/index.d.ts',
      'package/dist/generated/openapi.d.ts',
      'package/README.md',
      'package/CHANGELOG.md',
    ]) {
      assert.ok(files.includes(expected), `${expected} missing from ${files.join(', ')}`);
    }
    assert.ok(
      !files.some((f) => f.includes('/test/') || f.includes('/src/') || f.endsWith('.tsbuildinfo')),
      files.join(),
    );
  });

  it('installs into a new project with no dependencies and works from there', async () => {
    const project = join(dir, 'project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'try-client', private: true, type: 'module' }));
    execFileSync(npm, ['install', '--no-audit', '--no-fund', '--offline', tarball], { ...quiet, cwd: project });
    assert.deepEqual(
      readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.')),
      ['@snapgraph'],
    );

    const key = await server.newKey();
    writeFileSync(
      join(project, 'try.mjs'),
      `import { SnapgraphClient, SnapgraphError } from '@snapgraph/client';
const sg = new SnapgraphClient({ baseUrl: process.env.URL, apiKey: process.env.KEY });
const snap = await sg.snapshots.create({ name: 'From the tarball', core: 'It installs and runs' });
const page = await sg.snapshots.list();
let code;
try { await sg.snapshots.get('snap_missing'); } catch (err) { code = err instanceof SnapgraphError && err.code; }
console.log(JSON.stringify({ id: snap.id, count: page.count, code }));`,
    );
    // Not execFileSync: the server answering it runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['try.mjs'], {
      cwd: project,
      env: { ...process.env, URL: server.baseUrl, KEY: key.key },
      timeout: 60_000,
    });
    const result = JSON.parse(stdout) as { id: string; count: number; code: string };
    assert.match(result.id, /^snap_/);
    assert.equal(result.count, 1);
    assert.equal(result.code, 'NOT_FOUND');
  });

  it('the build imports nothing but its own files, so it also runs in a browser', () => {
    const dist = join(packageDir, 'dist');
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    assert.ok(files.length > 5);
    for (const file of files) {
      // Comments may show Node usage in examples; the code may not use it.
      const text = readFileSync(join(dist, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      for (const [, specifier] of text.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
        assert.ok(specifier!.startsWith('./') || specifier!.startsWith('../'), `${file} imports ${specifier}`);
      }
      assert.doesNotMatch(text, /\bprocess\.|\bBuffer\b|require\(/, `${file} uses a Node-only global`);
    }
  });
});
