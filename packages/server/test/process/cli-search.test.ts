import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectTestApi } from '../helpers/harness.js';
import { createKeyViaCli, runCli, suiteWorkspaces } from './helpers/process-harness.js';

describe('snapgraph search', () => {
  const fresh = suiteWorkspaces();

  it('ranks like the API, one line a result or the API body with --json; asks which brain when there are several', async () => {
    const workspace = await fresh('cli-search');
    const key = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro']);
    const api = await connectTestApi(workspace.databasePath);
    const auth = { key: { key: key.key, keyId: key.key_id, accountId: key.account_id, brainId: key.brain_id } };
    let supported = '';
    try {
      for (const name of ['Lichen growth', 'Lichen colours']) {
        const res = await api.request('POST', '/v1/snapshots', { ...auth, body: { name, core: `${name} on granite` } });
        supported ||= res.body.data.id;
      }
      const critic = await api.request('POST', '/v1/snapshots', { ...auth, body: { name: 'Doubt', core: 'Not so' } });
      await api.request('POST', '/v1/edges', {
        ...auth,
        body: { source_id: critic.body.data.id, target_id: supported, edge_type: 'contradicts' },
      });
      const viaApi = await api.request('GET', '/v1/snapshots/search?q=lichen%20granite', auth);
      const text = await runCli(workspace.databasePath, ['search', 'lichen', 'granite']);
      assert.equal(text.code, 0, text.stderr);
      const lines = text.stdout.trim().split('\n');
      assert.equal(lines.length, 3);
      assert.match(lines[2] as string, /^2 of 2 result\(s\) for "lichen granite"$/);
      assert.match(lines.join('\n'), /contradicted by: Doubt/);
      const json = await runCli(workspace.databasePath, ['search', 'lichen granite', '--json']);
      assert.equal(json.code, 0, json.stderr);
      assert.deepEqual(JSON.parse(json.stdout), viaApi.body);
      const none = await runCli(workspace.databasePath, ['search', 'basalt']);
      assert.match(none.stdout, /No match for "basalt"/);
      await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
      const ambiguous = await runCli(workspace.databasePath, ['search', 'lichen']);
      assert.equal(ambiguous.code, 2);
      assert.match(ambiguous.stderr, /several brains exist/);
      const named = await runCli(workspace.databasePath, ['search', 'lichen', '--brain', key.brain_id, '--json']);
      assert.equal(JSON.parse(named.stdout).count, 2);
      const usage = await runCli(workspace.databasePath, ['search']);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /usage: snapgraph search/);
    } finally {
      await api.close();
    }
  });
});
