// The first week of a self-hosted user (design §16.2): the key the README makes is its owner's,
// so loading a few hundred snapshots and memories in a loop and searching as often as one likes
// never meets a 429. The command is read from the README itself and run as a user runs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { call, createKeyViaCli, SERVER_ROOT, startServer, suiteWorkspaces } from './helpers/process-harness.js';

const shell = promisify(execFile);
const README = join(SERVER_ROOT, '..', '..', 'README.md');

/** The README's `export KEY=$(…)` line: the one a new user copies. */
function readmeKeyLine(): string {
  const line = readFileSync(README, 'utf8')
    .split('\n')
    .find((text) => text.startsWith('export KEY=$('));
  assert.ok(line, 'the README keeps the key in KEY');
  return line;
}

describe('the first week of a self-hosted user', () => {
  const fresh = suiteWorkspaces();

  it('the README key is an enterprise key of 6,000/min and 100/s; a banner and the README show no --plan', async () => {
    const line = readmeKeyLine();
    assert.doesNotMatch(line, /--plan/);
    const workspace = await fresh('first-week-key');
    const server = await startServer(workspace.databasePath);
    await server.printed(/npx snapgraph keys create/);
    assert.match(server.stderr(), /^ {2}(DATABASE_URL=\S+ )?npx snapgraph keys create$/m);
    const made = await shell('sh', ['-c', `${line.replace('export KEY=$(', '(').replace(/ \| node .*$/, '')})`], {
      cwd: join(SERVER_ROOT, '..', '..'),
      env: { ...process.env, DATABASE_URL: workspace.databasePath },
    });
    const key = JSON.parse(made.stdout) as { plan: string; rpm: number; burst: number };
    assert.deepEqual([key.plan, key.rpm, key.burst], ['enterprise', 6000, 100]);
    // One limit given: the other keeps the owner's default. A plan named is that plan.
    const slower = await createKeyViaCli(workspace.databasePath, ['--rpm', '500']);
    assert.deepEqual([slower.plan, slower.rpm, slower.burst], ['enterprise', 500, 100]);
    const handedOut = await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
    assert.deepEqual([handedOut.plan, handedOut.rpm, handedOut.burst], ['free', null, null]);
  });

  it('200 snapshots, 200 memories and 50 searches in a curl loop, with the README key, meet no 429', async () => {
    const workspace = await fresh('first-week-load');
    const server = await startServer(workspace.databasePath);
    await server.printed(/Embeddings:/);
    // What the user did: the README's lines, then curl in a shell loop, one request at a
    // time. Each line of output is one answer's status.
    const script = [
      `export SG=${server.baseUrl}`,
      readmeKeyLine(),
      `auth='Authorization: Bearer '"$KEY"`,
      String.raw`post() { curl -s -o /dev/null -w '%{http_code}\n' -H "$auth" -H 'Content-Type: application/json' -X POST "$SG$1" -d "$2"; }`,
      `topics='deploy coffee garden budget travel'`,
      `i=0; while [ $i -lt 40 ]; do for t in $topics; do`,
      String.raw`  post /v1/snapshots "{\"name\": \"Note $i on $t\", \"core\": \"What I learned about $t on day $i\"}"`,
      String.raw`  post /v1/memories "{\"content\": \"Talked about $t again, round $i\", \"speaker\": \"Tom\", \"session_id\": \"s$i\"}"`,
      `done; i=$((i + 1)); done`,
      `post /v1/specific-knowledge/ingest '{"source_type": "book", "title": "Gardening", "content": "Mulch is defined as a layer of material on soil that keeps water in and weeds out."}'`,
      `i=0; while [ $i -lt 10 ]; do for t in $topics; do`,
      String.raw`  [ $((i % 3)) = 0 ] && curl -s -o /dev/null -w '%{http_code}\n' -H "$auth" "$SG/v1/snapshots/search?q=$t"`,
      String.raw`  [ $((i % 3)) = 1 ] && post /v1/memories/search "{\"query\": \"$t\"}"`,
      String.raw`  [ $((i % 3)) = 2 ] && post /v1/specific-knowledge/search "{\"query\": \"$t\"}"`,
      `done; i=$((i + 1)); done`,
      'echo "KEY=$KEY" >&2',
    ].join('\n');
    const ran = await shell('sh', ['-c', script], {
      cwd: join(SERVER_ROOT, '..', '..'),
      env: { ...process.env, DATABASE_URL: workspace.databasePath },
      maxBuffer: 1 << 20,
    });
    const statuses: Record<string, number> = {};
    for (const status of ran.stdout.trim().split('\n')) statuses[status] = (statuses[status] ?? 0) + 1;
    assert.deepEqual(statuses, { 200: 50, 201: 401 }, 'no 429, nothing refused');

    // Everything arrived: the brain counts the 200 snapshots (and those the ingested source made).
    const key = /^KEY=(sg_\w+)$/m.exec(ran.stderr)?.[1];
    assert.ok(key, ran.stderr);
    const brains = await call(server.baseUrl, 'GET', '/v1/brains', { key });
    assert.ok(brains.body.data[0].snapshot_count >= 200, brains.text);
  });
});
