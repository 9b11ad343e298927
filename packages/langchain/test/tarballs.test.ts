import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { assertAiSdkOutput, assertLangchainOutput, readmeExample, runExample } from './readme.js';
import { startLiveServer, type LiveServer } from './support.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const packageDir = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));

async function pack(name: string, into: string): Promise<string> {
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', into], { cwd: packageDir(name) });
  return join(into, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
}

const manifest = async (tarball: string) =>
  JSON.parse((await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout) as {
    dependencies?: object;
    peerDependencies?: Record<string, string>;
  };

/**
 * Both integration packages as a user gets them: `npm pack`ed with the client, installed from
 * the tarballs into an empty project beside their peers (from npm's cache, or the registry when
 * the cache lacks them), and each README's example run there against a live server.
 */
describe('the packed tarballs', () => {
  let dir: string;
  let server: LiveServer;
  const tarballs: Record<string, string> = {};
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snapgraph-integrations-pack-'));
    for (const name of ['client', 'langchain', 'ai-sdk']) tarballs[name] = await pack(name, dir);
    server = await startLiveServer();
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('name the client, the framework and zod as peers, and bring no dependencies of their own', async () => {
    const langchain = await manifest(tarballs.langchain!);
    assert.equal(langchain.dependencies, undefined);
    assert.deepEqual(Object.keys(langchain.peerDependencies ?? {}).sort(), [
      '@langchain/core',
      '@snapgraph/client',
      'zod',
    ]);
    const aiSdk = await manifest(tarballs['ai-sdk']!);
    assert.equal(aiSdk.dependencies, undefined);
    assert.deepEqual(Object.keys(aiSdk.peerDependencies ?? {}).sort(), ['@snapgraph/client', 'ai', 'zod']);
    const files = (await run('tar', ['-tzf', tarballs.langchain!])).stdout.split('\n');
    assert.ok(files.includes('package/dist/index.d.ts') && files.includes('package/README.md'), files.join());
    assert.ok(!files.some((f) => f.includes('/test/') || f.includes('/src/')), files.join());
  });

  it('install into an empty project as the READMEs say, and their examples run there', async () => {
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'try-integrations', private: true, type: 'module' }),
    );
    await run(
      npm,
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        ...Object.values(tarballs),
        '@langchain/core@1',
        'ai@6',
        'zod@4',
      ],
      { cwd: project, timeout: 300_000 },
    );
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@snapgraph/langchain/package.json'), 'utf8'));
    assert.equal(installed.version, '0.1.0');

    // Each example on a fresh key: its brain holds only what that example wrote.
    const env = async () => ({ url: server.baseUrl, key: (await server.newKey()).key });
    const example = (name: string) => readmeExample(join(packageDir(name), 'README.md'));
    assertLangchainOutput(await runExample(example('langchain'), project, await env()));
    assertAiSdkOutput(await runExample(example('ai-sdk'), project, await env()));
  });
});
