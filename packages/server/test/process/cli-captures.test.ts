// Design §16.3 in the CLI: every command that opens the database names it on standard error
// (--json output unchanged), --brain takes a name, and captures are decided from the terminal.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { testBackend } from '../helpers/database.js';
import { NOTES } from '../crystallize/fixtures.js';
import { createKeyViaCli, runCli, suiteWorkspaces } from './helpers/process-harness.js';

describe('snapgraph captures, brains by name, the database named', () => {
  const workspace = suiteWorkspaces();

  it('names the database on stderr and leaves --json stdout as it was', async () => {
    const w = await workspace('cli-database');
    const created = await runCli(w.databasePath, ['keys', 'create', '--plan', 'free', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const expected = testBackend === 'sqlite' ? w.databasePath : 'PostgreSQL database ';
    assert.ok(created.stderr.startsWith(`database: ${expected}`), created.stderr);
    assert.match(JSON.parse(created.stdout).key, /^sg_/);
    for (const args of [
      ['brains', 'list', '--json'],
      ['keys', 'list', '--json'],
      ['captures', 'list', '--json'],
      ['migrate'],
    ]) {
      const result = await runCli(w.databasePath, args);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /^database: /m, args.join(' '));
      if (args.includes('--json')) JSON.parse(result.stdout);
    }
    assert.doesNotMatch((await runCli(w.databasePath, ['--help'])).stderr, /database:/);
  });

  it('takes a brain by name; two brains of one name are an error listing their ids', async () => {
    const w = await workspace('cli-brain-names');
    const key = await createKeyViaCli(w.databasePath);
    const work = JSON.parse(
      (await runCli(w.databasePath, ['brains', 'create', '--name', 'Work', '--key', key.key_id, '--json'])).stdout,
    );
    const file = join(w.dir, 'notes.txt');
    writeFileSync(file, NOTES);
    const made = await runCli(w.databasePath, ['crystallize', file, '--brain', 'Work', '--json']);
    assert.equal(made.code, 0, made.stderr);
    assert.ok(JSON.parse(made.stdout).data.snapshots.every((s: { brain_id: string }) => s.brain_id === work.id));
    const found = await runCli(w.databasePath, ['search', 'habits', '--brain', 'Work', '--json']);
    assert.equal(found.code, 0, found.stderr);
    const exported = await runCli(w.databasePath, ['export', '--brain', 'Work']);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, new RegExp(`"brain_id":"${work.id}"`));

    const unnamed = await runCli(w.databasePath, ['search', 'habits']);
    assert.equal(unnamed.code, 2);
    assert.match(unnamed.stderr, /--brain <id or name>/);
    assert.match(unnamed.stderr, new RegExp(`${work.id} +Work`));

    const twin = JSON.parse(
      (await runCli(w.databasePath, ['brains', 'create', '--name', 'Work', '--key', key.key_id, '--json'])).stdout,
    );
    const ambiguous = await runCli(w.databasePath, ['search', 'habits', '--brain', 'Work']);
    assert.equal(ambiguous.code, 2);
    assert.match(ambiguous.stderr, /2 brains are named "Work"/);
    assert.ok(ambiguous.stderr.includes(work.id) && ambiguous.stderr.includes(twin.id), ambiguous.stderr);
    const missing = await runCli(w.databasePath, ['search', 'habits', '--brain', 'Nope']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /brain "Nope" not found/);
  });

  it('lists, accepts and rejects captures, as the API does', async () => {
    const w = await workspace('cli-captures');
    const key = await createKeyViaCli(w.databasePath);
    const file = join(w.dir, 'notes.txt');
    writeFileSync(file, NOTES);
    const review = await runCli(w.databasePath, ['crystallize', file, '--review']);
    assert.equal(review.code, 0, review.stderr);
    assert.match(review.stdout, /snapgraph captures accept <id>/);

    const listed = await runCli(w.databasePath, ['captures', 'list', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const { data, count } = JSON.parse(listed.stdout);
    assert.ok(count >= 2, listed.stdout);
    const [first, second] = data as { id: string; brain_id: string; snapshot: { name: string } }[];
    assert.equal(first?.brain_id, key.brain_id);
    const text = await runCli(w.databasePath, ['captures', 'list', '--brain', key.brain_id]);
    assert.match(text.stdout, new RegExp(`^${first?.id} `, 'm'));

    const accepted = await runCli(w.databasePath, ['captures', 'accept', first!.id, '--json']);
    assert.equal(accepted.code, 0, accepted.stderr);
    const snapshot = JSON.parse(accepted.stdout).data;
    assert.match(snapshot.id, /^snap_/);
    assert.equal(snapshot.name, first?.snapshot.name);
    const rejected = await runCli(w.databasePath, ['captures', 'reject', second!.id]);
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.match(rejected.stdout, new RegExp(`Rejected ${second?.id}`));

    const after = JSON.parse((await runCli(w.databasePath, ['captures', 'list', '--json'])).stdout);
    assert.equal(after.count, count - 2);
    const twice = await runCli(w.databasePath, ['captures', 'accept', first!.id]);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /capture .*not found/);
    const searched = JSON.parse((await runCli(w.databasePath, ['search', snapshot.name, '--json'])).stdout);
    assert.ok(
      searched.data.some((s: { id: string }) => s.id === snapshot.id),
      'the accepted capture is a snapshot',
    );
    const usage = await runCli(w.databasePath, ['captures', 'decide']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /usage: snapgraph captures list/);
  });
});
