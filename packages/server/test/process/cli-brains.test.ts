import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKeyViaCli, runCli, suiteWorkspaces } from './helpers/process-harness.js';

describe('snapgraph brains create: which account', () => {
  const fresh = suiteWorkspaces();

  it('with a single account, --name alone creates the brain there', async () => {
    const workspace = await fresh('brains-single');
    const key = await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
    const result = await runCli(workspace.databasePath, ['brains', 'create', '--name', 'Research', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const brain = JSON.parse(result.stdout);
    assert.equal(brain.account_id, key.account_id);
    assert.equal(brain.name, 'Research');
    assert.match(brain.id, /^brain_/);
  });

  it('on a fresh install it makes a new account for the brain, and a key can then be issued for it', async () => {
    const workspace = await fresh('brains-fresh');
    const created = await runCli(workspace.databasePath, ['brains', 'create', '--name', 'First', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const brain = JSON.parse(created.stdout);
    assert.match(brain.account_id, /^acct_/);
    assert.equal(brain.name, 'First');
    const again = await runCli(workspace.databasePath, ['brains', 'create', '--name', 'Second', '--json']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).account_id, brain.account_id, 'the one account is used from then on');
    const key = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro', '--brain', brain.id]);
    assert.equal(key.account_id, brain.account_id);
    assert.equal(key.brain_id, brain.id);
  });

  it('with several accounts it asks which, and --key names one', async () => {
    const workspace = await fresh('brains-several');
    await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
    const second = await createKeyViaCli(workspace.databasePath, ['--plan', 'pro']);
    const ambiguous = await runCli(workspace.databasePath, ['brains', 'create', '--name', 'Research']);
    assert.notEqual(ambiguous.code, 0);
    assert.match(ambiguous.stderr, /several accounts/);
    const byKey = await runCli(workspace.databasePath, ['brains', 'create', 'Notes', '--key', second.key_id, '--json']);
    assert.equal(byKey.code, 0, byKey.stderr);
    assert.equal(JSON.parse(byKey.stdout).account_id, second.account_id);
  });

  it('an unknown account or key is refused without creating anything', async () => {
    const workspace = await fresh('brains-unknown');
    await createKeyViaCli(workspace.databasePath, ['--plan', 'free']);
    for (const flag of [
      ['--account', 'acct_nope'],
      ['--key', 'key_nope'],
    ]) {
      const result = await runCli(workspace.databasePath, ['brains', 'create', '--name', 'X', ...flag]);
      assert.notEqual(result.code, 0);
      assert.match(result.stderr, /not found/);
    }
    const listed = JSON.parse((await runCli(workspace.databasePath, ['brains', 'list', '--json'])).stdout);
    assert.equal(listed.length, 1, 'only the key’s default brain exists');
  });
});
