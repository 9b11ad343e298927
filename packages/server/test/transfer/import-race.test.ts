import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueApiKey } from '../../src/domain/keys/index.js';
import { importFile, importSource } from '../../src/domain/transfer/index.js';
import { newId } from '../../src/ids.js';
import { startTestApi, type TestApi } from '../helpers/harness.js';
import { exportText, fillBrain, writeFile } from './support.js';

/**
 * Issue 46: which brain a file goes into is decided and created in one step. Two imports naming
 * the same free brain id at the same moment never share it, whoever runs them.
 */
describe('imports at the same moment', () => {
  let source: TestApi;
  let server: TestApi;
  before(async () => {
    source = await startTestApi({ backgroundWork: false });
    server = await startTestApi({ backgroundWork: false });
  });
  after(async () => {
    await source.close();
    await server.close();
  });

  /** A brain made on another server, exported: every id of the file is free on `server`. */
  async function freshFile(name: string): Promise<string> {
    const author = await source.newKey();
    await fillBrain(source, author);
    return writeFile(server.dir, name, await exportText(source, author, author.brainId));
  }

  /** As an import job runs it: the caller's account, a fresh brain id drawn for the job. */
  const importAs = (file: string, accountId: string) =>
    importFile(server.app.domain, importSource(file, '{'), { accountId, freshBrainId: newId('brain') });

  async function snapshotsOf(brainId: string): Promise<number> {
    const { key } = await issueApiKey(server.app.domain, { plan: 'pro', brainId });
    const listed = await server.request('GET', `/v1/snapshots?brain_id=${brainId}&limit=100`, { key });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    return listed.body.data.length;
  }

  it('two accounts importing a file naming the same free brain id: each gets a brain of its own', async () => {
    const file = await freshFile('two-accounts.jsonl');
    const [a, b] = [await server.newKey(), await server.newKey()];
    const [first, second] = await Promise.all([importAs(file, a.accountId), importAs(file, b.accountId)]);
    assert.notEqual(first.brainId, second.brainId, 'two brains');
    assert.equal((await server.app.domain.store.brains.getUnscoped(first.brainId))?.account_id, a.accountId);
    assert.equal((await server.app.domain.store.brains.getUnscoped(second.brainId))?.account_id, b.accountId);
    assert.equal(await snapshotsOf(first.brainId), 3, 'the first brain holds its own file only');
    assert.equal(await snapshotsOf(second.brainId), 3, 'the second brain holds its own file only');
    assert.equal([first, second].filter((r) => r.keptIds).length, 1, 'one kept the file’s ids, the other got new ones');
  });

  it('one account importing the same file twice at once gets two brains', async () => {
    const file = await freshFile('one-account.jsonl');
    const key = await server.newKey();
    const results = await Promise.all([importAs(file, key.accountId), importAs(file, key.accountId)]);
    assert.notEqual(results[0].brainId, results[1].brainId);
    for (const result of results) {
      assert.equal((await server.app.domain.store.brains.getUnscoped(result.brainId))?.account_id, key.accountId);
      assert.equal(await snapshotsOf(result.brainId), 3);
    }
  });
});
