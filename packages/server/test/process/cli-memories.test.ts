// `snapgraph memories add | list | search` (design §16.3) and the memory count of `brains list`,
// run as subprocesses on the backend under test: memories are visible from a terminal as they
// are over HTTP, with the API's bodies under --json.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectTestApi } from '../helpers/harness.js';
import { assertOneLineExit, createKeyViaCli, runCli, suiteWorkspaces } from './helpers/process-harness.js';

interface ShownMemory {
  id: string;
  content: string;
  speaker: string | null;
  session_id: string | null;
  memory_type: string;
  occurred_at: string;
  score?: number;
}

describe('snapgraph memories', () => {
  const fresh = suiteWorkspaces();

  it('add keeps speaker, session, type and time; list and search filter by them; the bodies are the API’s', async () => {
    const workspace = await fresh('cli-memories');
    const key = await createKeyViaCli(workspace.databasePath, []);
    const add = async (text: string, ...flags: string[]) => {
      const result = await runCli(workspace.databasePath, ['memories', 'add', text, ...flags, '--json']);
      assert.equal(result.code, 0, result.stderr);
      return (JSON.parse(result.stdout) as { data: ShownMemory }).data;
    };
    const first = await add(
      'Tom is allergic to peanuts',
      '--speaker',
      'Tom',
      '--session',
      'dinner',
      '--occurred-at',
      '2026-03-01T19:00:00Z',
    );
    assert.deepEqual(
      [first.content, first.speaker, first.session_id, first.memory_type, first.occurred_at],
      ['Tom is allergic to peanuts', 'Tom', 'dinner', 'fact', '2026-03-01T19:00:00.000Z'],
    );
    await add(
      'I will bring the dessert',
      '--speaker',
      'Ana',
      '--session',
      'dinner',
      '--occurred-at',
      '2026-03-01T19:01:00Z',
    );
    const preference = await add('Tom prefers tea to coffee', '--speaker', 'Tom', '--type', 'preference');
    assert.equal(preference.memory_type, 'preference');
    assert.equal(preference.session_id, null);

    // The text form: one line a memory, then how many.
    const text = await runCli(workspace.databasePath, ['memories', 'add', 'Deploys happen on Tuesdays']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Remembered: \S+Z {2}mem_\S+ {2}Deploys happen on Tuesdays\n$/);

    const listed = await runCli(workspace.databasePath, ['memories', 'list', '--speaker', 'Tom', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const tom = JSON.parse(listed.stdout) as { data: ShownMemory[]; count: number };
    assert.equal(tom.count, 2);
    assert.deepEqual(
      new Set(tom.data.map((m) => m.content)),
      new Set(['Tom is allergic to peanuts', 'Tom prefers tea to coffee']),
    );
    const session = JSON.parse(
      (await runCli(workspace.databasePath, ['memories', 'list', '--session', 'dinner', '--json'])).stdout,
    );
    assert.equal(session.count, 2);
    const all = await runCli(workspace.databasePath, ['memories', 'list']);
    assert.match(all.stdout, /\[dinner\] {2}Tom: Tom is allergic to peanuts/);
    assert.match(all.stdout, /^4 of 4 memories, newest first$/m);

    // Search: the API's body exactly, read over HTTP on the same database.
    const api = await connectTestApi(workspace.databasePath);
    try {
      const auth = { key: { key: key.key, keyId: key.key_id, accountId: key.account_id, brainId: key.brain_id } };
      const viaApi = await api.request('POST', '/v1/memories/search', { ...auth, body: { query: 'peanuts allergic' } });
      const viaCli = await runCli(workspace.databasePath, ['memories', 'search', 'peanuts allergic', '--json']);
      assert.equal(viaCli.code, 0, viaCli.stderr);
      assert.deepEqual(JSON.parse(viaCli.stdout), viaApi.body);
      assert.equal(viaApi.body.data[0].id, first.id);
      const bySpeaker = JSON.parse(
        (await runCli(workspace.databasePath, ['memories', 'search', 'tom', '--speaker', 'Ana', '--json'])).stdout,
      );
      assert.ok(bySpeaker.data.every((m: ShownMemory) => m.speaker === 'Ana'));
      const lines = await runCli(workspace.databasePath, ['memories', 'search', 'tea']);
      assert.match(lines.stdout, /^0\.\d{4} {2}\S+ {2}mem_\S+ {2}Tom: Tom prefers tea to coffee$/m);
      assert.match(lines.stdout, /^1 of 1 result\(s\) for "tea"$/m);
      assert.match(
        (await runCli(workspace.databasePath, ['memories', 'search', 'basalt'])).stdout,
        /No memory matches "basalt"/,
      );

      // brains list counts them, in text and JSON, as the API does.
      const brains = JSON.parse((await runCli(workspace.databasePath, ['brains', 'list', '--json'])).stdout);
      assert.equal(brains[0].memory_count, 4);
      assert.equal(brains[0].snapshot_count, 0);
      const brainText = await runCli(workspace.databasePath, ['brains', 'list']);
      assert.match(brainText.stdout, /memory_count/);
      assert.match(brainText.stdout.split('\n')[1] as string, /\b0 +0 +4 +\d{4}-/);
      const viaHttp = await api.request('GET', `/v1/brains/${key.brain_id}`, auth);
      assert.equal(viaHttp.body.data.memory_count, 4);
    } finally {
      await api.close();
    }
  });

  it('bad input is one clear line and exit 2, and nothing is written', async () => {
    const workspace = await fresh('cli-memories-bad');
    await createKeyViaCli(workspace.databasePath, []);
    const run = (...args: string[]) => runCli(workspace.databasePath, ['memories', ...args]);
    assertOneLineExit(await run('add', 'x', '--type', 'gossip'), 2, /--type must be one of: fact, decision/);
    assertOneLineExit(await run('add', 'x', '--occurred-at', 'yesterday'), 2, /occurred_at/);
    const usage = async (result: Promise<{ code: number | null; stderr: string }>) => {
      const { code, stderr } = await result;
      assert.equal(code, 2, stderr);
      assert.match(stderr, /^snapgraph: usage: snapgraph memories add/m);
    };
    await usage(run('add', '   '));
    assertOneLineExit(await run('list', '--limit', '500'), 2, /--limit must be a whole number from 1 to 100/);
    assertOneLineExit(await run('search', 'x', '--brain', 'Nowhere'), 2, /brain "Nowhere"/);
    await usage(run('forget'));
    const listed = JSON.parse((await run('list', '--json')).stdout);
    assert.equal(listed.count, 0);
  });
});
