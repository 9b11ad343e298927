import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NOTES } from '../crystallize/fixtures.js';
import { behave, startFakeOpenAI } from '../helpers/fake-openai.js';
import { connectTestApi } from '../helpers/harness.js';
import { createKeyViaCli, runCli, suiteWorkspaces } from './helpers/process-harness.js';

describe('snapgraph crystallize and snapgraph ingest', () => {
  const workspace = suiteWorkspaces();

  it('crystallizes a file like the API, a line a snapshot or the API body with --json; the same file again makes nothing', async () => {
    const w = await workspace('cli-crystallize');
    const key = await createKeyViaCli(w.databasePath);
    const file = join(w.dir, 'notes.txt');
    writeFileSync(file, NOTES);

    const text = await runCli(w.databasePath, ['crystallize', file]);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trim().split('\n');
    assert.match(lines.at(-1) as string, /^\d+ snapshot\(s\) and \d+ automatic edge\(s\); run cry_\S+: .*builtin/);
    assert.ok(lines.length >= 2);
    for (const line of lines.slice(0, -1)) assert.match(line, /^snap_\S+ {2}(Belief|Model|Rule|Conviction|Principle)/);

    const api = await connectTestApi(w.databasePath);
    try {
      const auth = { key: { key: key.key, keyId: key.key_id, accountId: key.account_id, brainId: key.brain_id } };
      const listed = await api.request('GET', '/v1/snapshots', auth);
      assert.equal(listed.body.count, lines.length - 1);
      assert.equal(listed.body.data[0].source_type, 'cli');
    } finally {
      await api.close();
    }

    const again = await runCli(w.databasePath, ['crystallize', file, '--json', '--brain', key.brain_id]);
    assert.equal(again.code, 0, again.stderr);
    const body = JSON.parse(again.stdout);
    assert.equal(body.data.count, 0, 'nothing new the second time');
    assert.match(body.run_id, /^cry_/);

    const other = join(w.dir, 'other.txt');
    writeFileSync(
      other,
      'Always back up the database before a migration. I believe code review catches design mistakes early.',
    );
    const review = await runCli(w.databasePath, ['crystallize', other, '--review', '--json', '--source-type', 'notes']);
    assert.equal(review.code, 0, review.stderr);
    assert.ok(JSON.parse(review.stdout).data.captures.length >= 1);
  });

  it('refuses what the API refuses, with usage and exit code 2', async () => {
    const w = await workspace('cli-crystallize-bad');
    await createKeyViaCli(w.databasePath);
    const short = join(w.dir, 'short.txt');
    writeFileSync(short, 'Too short.');
    const cases: [string[], RegExp][] = [
      [['crystallize'], /usage: snapgraph crystallize/],
      [['crystallize', short], /50 to 100000 characters/],
      [['crystallize', join(w.dir, 'missing.txt')], /ENOENT|no such file/],
      [['crystallize', short, '--source-type', 'Bad Type'], /--source-type/],
      [['ingest', short], /usage: snapgraph ingest/],
      [['ingest', short, '--title', 'T', '--source-type', 'blog'], /--source-type must be one of/],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(w.databasePath, args);
      assert.notEqual(res.code, 0, args.join(' '));
      assert.match(res.stderr, message, args.join(' '));
    }
  });

  it('ingests a file as a knowledge source, and uses the LLM when LLM_BASE_URL is set', async () => {
    const w = await workspace('cli-ingest');
    await createKeyViaCli(w.databasePath);
    const file = join(w.dir, 'book.txt');
    writeFileSync(file, 'Spaced repetition is defined as reviewing material at growing intervals to keep it.');
    const res = await runCli(w.databasePath, ['ingest', file, '--title', 'Memory', '--source-type', 'book', '--json']);
    assert.equal(res.code, 0, res.stderr);
    const body = JSON.parse(res.stdout);
    assert.match(body.data.source_id, /^src_/);
    assert.ok(body.data.entries_count >= 1);

    const llm = await startFakeOpenAI();
    try {
      llm.script(
        'chat',
        behave.answer({
          content: JSON.stringify({
            entries: [{ entry_type: 'principle', title: 'Space it', content: 'Review later.' }],
          }),
        }),
      );
      const viaLlm = await runCli(
        w.databasePath,
        ['ingest', file, '--title', 'Memory', '--source-type', 'book', '--json', '--no-snapshots'],
        undefined,
        { LLM_BASE_URL: llm.url, LLM_MODEL: 'fake' },
      );
      assert.equal(viaLlm.code, 0, viaLlm.stderr);
      assert.deepEqual(
        JSON.parse(viaLlm.stdout).data.entries.map((e: { title: string }) => e.title),
        ['Space it'],
      );
      assert.equal(llm.callsTo('chat').length, 1);
    } finally {
      await llm.close();
    }
  });
});
