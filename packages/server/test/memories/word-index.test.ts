// The word index memory search keeps of a brain (store/sqlite/memory-word-index/) follows every
// writer: memories written, changed and deleted through another app on the same database are
// found (or gone) at the next search, and a search through an index kept up by writes answers as
// one built afresh. On PostgreSQL (no index) the same holds through the store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { WordIndexBuilt } from '../../src/store/memory-store.js';
import { newId } from '../../src/ids.js';
import { testBackend } from '../helpers/database.js';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { prng } from '../helpers/prng.js';

const WORDS = ['lantern', 'harbour', 'violin', 'orchard', 'glacier', 'pepper', 'marble', 'falcon', 'meadow', 'copper'];

describe('memory search follows every writer', () => {
  let api: TestApi;
  let other: Awaited<ReturnType<typeof connectTestApi>>;
  let key: TestKey;
  const next = prng(7);
  const sentence = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)] as string).join(' ');

  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    other = await connectTestApi(api.databasePath, { backgroundWork: false });
    key = await api.newKey();
    for (let i = 0; i < 60; i++) {
      const res = await api.request('POST', '/v1/memories', {
        key,
        body: { content: sentence(3 + (i % 5)), speaker: i % 2 ? 'Ada' : 'Ben', session_id: `s${Math.floor(i / 10)}` },
      });
      assert.equal(res.status, 201);
    }
  });
  after(async () => {
    await other.close();
    await api.close();
  });

  const search = async (from: Pick<TestApi, 'request'>, query: string) => {
    const res = await from.request('POST', '/v1/memories/search', { key, body: { query, limit: 10 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { data: { id: string; content: string; score: number }[]; count: number };
  };

  it('finds a memory another app wrote, by its new text after the other app changed it, and not after it deleted it', async () => {
    assert.equal((await search(api, 'lantern violin')).data.length, 10); // the brain is read once
    const written = await other.request('POST', '/v1/memories', { key, body: { content: 'A zanzibarite lantern' } });
    assert.equal(written.status, 201);
    const id = written.body.data.id as string;
    const found = await search(api, 'zanzibarite');
    assert.deepEqual(
      found.data.map((m) => m.id),
      [id],
    );
    assert.equal(found.count, 1);

    const changed = await other.request('PUT', `/v1/memories/${id}`, {
      key,
      body: { content: 'A quetzalite lantern' },
    });
    assert.equal(changed.status, 200);
    assert.equal((await search(api, 'zanzibarite')).count, 0);
    assert.deepEqual(
      (await search(api, 'quetzalite')).data.map((m) => m.id),
      [id],
    );

    assert.equal((await other.request('DELETE', `/v1/memories/${id}`, { key })).status, 200);
    const gone = await search(api, 'quetzalite');
    assert.deepEqual(gone, { ...gone, data: [], count: 0 });
  });

  it('lifts a turn another app wrote next to a match, though the turns around it were read before', async () => {
    const turn = async (by: Pick<TestApi, 'request'>, content: string, minute: number) => {
      const res = await by.request('POST', '/v1/memories', {
        key,
        body: { content, speaker: 'Ada', session_id: 'attic', occurred_at: `2024-03-01T10:0${minute}:00Z` },
      });
      assert.equal(res.status, 201);
      return res.body.data.id as string;
    };
    await turn(api, 'The glimmerstone is up in the attic', 0);
    await turn(api, 'Shall we have tea', 4);
    const before = await search(api, 'glimmerstone');
    const next = await turn(other, 'Next to the old trunk', 2);
    const after = await search(api, 'glimmerstone');
    assert.ok(!before.data.some((m) => m.id === next));
    assert.ok(
      after.data.some((m) => m.id === next),
      'the new turn is one place from the match',
    );
  });

  it("shows a memory's promotion by another app at the next search, though the memory was read before", async () => {
    const first = (await search(api, 'copper meadow')).data[0];
    assert.ok(first);
    assert.equal((first as { promoted_to?: string | null }).promoted_to, null);
    const promoted = await other.request('POST', `/v1/memories/${first.id}/crystallize`, { key, body: {} });
    assert.equal(promoted.status, 201, JSON.stringify(promoted.body));
    const again = (await search(api, 'copper meadow')).data.find((m) => m.id === first.id) as
      { promoted_to: string | null } | undefined;
    assert.equal(again?.promoted_to, promoted.body.data.memory.promoted_to);
    assert.notEqual(again?.promoted_to, null);
  });

  it('after writes, changes and deletes through both apps, ranks as an app that reads the brain afresh', async () => {
    const listed = await api.request('GET', '/v1/memories?limit=100', { key });
    const ids = (listed.body.data as { id: string }[]).map((m) => m.id);
    for (const id of ids.slice(0, 8)) {
      assert.equal(
        (await api.request('PUT', `/v1/memories/${id}`, { key, body: { content: sentence(6) } })).status,
        200,
      );
    }
    for (const id of ids.slice(8, 20))
      assert.equal((await other.request('DELETE', `/v1/memories/${id}`, { key })).status, 200);
    for (let i = 0; i < 5; i++) {
      const by = i % 2 ? api : other;
      assert.equal((await by.request('POST', '/v1/memories', { key, body: { content: sentence(4) } })).status, 201);
    }
    const fresh = await connectTestApi(api.databasePath, { backgroundWork: false });
    try {
      for (const query of ['lantern', 'harbour violin', 'orchard glacier pepper', 'Ada marble']) {
        const kept = await search(api, query);
        const afresh = await search(fresh, query);
        assert.deepEqual(kept, afresh, query);
        assert.ok(kept.data.length > 0, query);
      }
    } finally {
      await fresh.close();
    }
  });
});

describe("a large brain's word index, built in a worker (SQLite)", { skip: testBackend !== 'sqlite' }, () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
    // 2,500 memories, past the 2,000 indexed on a search: written straight into the file.
    const db = new Database(api.databasePath);
    try {
      const insert = db.prepare(
        `INSERT INTO memories (id, account_id, brain_id, content, memory_type, speaker, tags, occurred_at, session_id,
           created_at, updated_at) VALUES (?, ?, ?, ?, 'fact', NULL, '[]', ?, ?, ?, ?)`,
      );
      const start = Date.now() - 10_000;
      db.transaction(() => {
        for (let i = 0; i < 2_500; i++) {
          const at = new Date(start + i).toISOString();
          const content = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} note ${i}`;
          insert.run(newId('mem', start + i), key.accountId, key.brainId, content, at, `s${i % 50}`, at, at);
        }
      })();
    } finally {
      db.close();
    }
  });
  after(() => api.close());

  const search = async (query: string) => {
    const res = await api.request('POST', '/v1/memories/search', { key, body: { query, limit: 5 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { data: { id: string; content: string }[]; count: number };
  };

  it('answers through the store while the index is built, then through the index, following writes', async () => {
    const memories = api.app.domain.store.memories;
    assert.ok(memories.onWordIndexBuilt);
    const built = new Promise<WordIndexBuilt>((resolve) => memories.onWordIndexBuilt?.(resolve));
    const meanwhile = await search('lantern harbour');
    assert.equal(meanwhile.data.length, 5);
    const event = await built;
    assert.equal(event.memories, 2_500);
    assert.equal(event.in_worker, true);
    const after = await search('lantern harbour');
    assert.equal(after.count, meanwhile.count);
    assert.ok(after.data.every((m) => /lantern|harbour/.test(m.content)));

    const written = await api.request('POST', '/v1/memories', { key, body: { content: 'a quetzalite lantern' } });
    assert.equal(written.status, 201);
    assert.deepEqual(
      (await search('quetzalite')).data.map((m) => m.id),
      [written.body.data.id],
    );
    assert.equal((await api.request('DELETE', `/v1/memories/${written.body.data.id}`, { key })).status, 200);
    assert.deepEqual((await search('quetzalite')).data, []);
  });
});
