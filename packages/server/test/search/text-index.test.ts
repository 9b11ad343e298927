import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { parseQuery } from '../../src/domain/search/query.js';
import { ftsExpression } from '../../src/store/sqlite/fts-search.js';
import { seededRandom as seeded } from '../extraction/fixtures.js';
import { testBackend } from '../helpers/database.js';
import { connectTestApi, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/**
 * The SQLite store ranks queries of plain words with an in-memory index of its own
 * (store/sqlite/text-index/), which must rank exactly as FTS5's bm25 with the same weights, see
 * every writer's changes as soon as they commit, and be built off the request thread when large.
 * The oracle is FTS5 itself, queried on the same file.
 */
describe('the in-memory text index (SQLite)', { skip: testBackend !== 'sqlite' }, () => {
  // Stems (run, running, runs), case and diacritics (café, CAFÉ, cafe), scripts without spaces,
  // digits, and words FTS5's tokenizer splits (well-known).
  const WORDS = [
    'run',
    'running',
    'runs',
    'runner',
    'café',
    'CAFÉ',
    'cafe',
    'naïve',
    'Straße',
    'Ærø',
    'øre',
    '東京',
    'Ünïcode',
    'résumé',
    'ÉCOLE',
    '2024',
    'v8',
    'well-known',
    'habit',
    'habits',
    'compound',
    'compounding',
    'interest',
    'focus',
    'rest',
    'work',
    'gains',
    'time',
    'doubt',
    'evidence',
    'model',
    'rule',
    'tiny',
    'river',
    'stone',
    'light',
    'quiet',
    'ledger',
    'orbit',
    'mirror',
  ];
  const TYPES = ['Belief', 'Model', 'Rule', 'Conviction', 'Principle'];
  let random = seeded(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const phrase = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick(WORDS)).join(' ');
  const snapshotBody = () => ({
    name: phrase(1, 3),
    core: phrase(3, 12),
    type: pick(TYPES),
    ...(random() < 0.5 ? { tags: [pick(WORDS), pick(WORDS)] } : {}),
    ...(random() < 0.4 ? { story: phrase(5, 30) } : {}),
    ...(random() < 0.3 ? { one_liner: phrase(2, 5) } : {}),
  });

  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  let fts: Database.Database;
  before(async () => {
    api = await startTestApi({ metrics: true });
    key = await api.newKey();
    other = await api.newKey();
    fts = new Database(api.databasePath, { readonly: true });
  });
  after(async () => {
    fts.close();
    await api.close();
  });

  const create = async (k: TestKey, count: number) => {
    const ids: string[] = [];
    for (let start = 0; start < count; start += 50) {
      const batch = Array.from({ length: Math.min(50, count - start) }, snapshotBody);
      const created = await Promise.all(batch.map((body) => api.request('POST', '/v1/snapshots', { key: k, body })));
      for (const res of created) {
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ids.push(res.body.data.id);
      }
    }
    return ids;
  };

  /** What FTS5 ranks first for the query's words in the key's brain: ids best first, and the count. */
  const ftsRanking = (words: string[], k: TestKey, type?: string) => {
    const query = parseQuery(words.join(' '));
    // Plain words as the in-memory index reads them; prefixes and phrases as FTS5 is asked them.
    const match =
      query.prefixes.length + query.phrases.length > 0
        ? (ftsExpression({ brainId: k.brainId }, query) as string)
        : query.terms.map((w) => `"${w}"`).join(' OR ');
    const rows = fts
      .prepare(
        `SELECT r.snapshot_id AS id, -bm25(snapshot_search, 3, 2, 1, 0.5) AS relevance, s.created_at
         FROM snapshot_search JOIN snapshot_search_rows r ON r.rowid = snapshot_search.rowid
           JOIN snapshots s ON s.id = r.snapshot_id
         WHERE snapshot_search MATCH ? AND r.brain_id = ? AND (? IS NULL OR r.type = ?)`,
      )
      .all(match, k.brainId, type ?? null, type ?? null) as { id: string; relevance: number; created_at: string }[];
    rows.sort(
      (a, b) =>
        b.relevance - a.relevance ||
        (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0) ||
        (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
    return { ids: rows.map((r) => r.id), count: rows.length };
  };

  const searchText = async (words: string[], k: TestKey, extra = '') => {
    const q = encodeURIComponent(words.join(' '));
    const res = await api.request('GET', `/v1/snapshots/search?q=${q}&graph=false&limit=25${extra}`, { key: k });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { ids: (res.body.data as { id: string }[]).map((r) => r.id), count: res.body.count as number };
  };

  const indexState = async () => {
    const text = (await api.request('GET', '/metrics')).body as string;
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    return {
      ready: value('snapgraph_search_text_index_ready'),
      documents: value('snapgraph_search_text_index_documents'),
      builds: value('snapgraph_search_text_index_builds'),
    };
  };

  /** Many random queries of 1–3 words (repeats and stems included) rank as FTS5 ranks them. */
  const assertRanksAsFts5 = async (queries: number, label: string) => {
    for (let i = 0; i < queries; i++) {
      const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(WORDS));
      const type = random() < 0.2 ? pick(TYPES) : undefined;
      const expected = ftsRanking(words, key, type);
      const found = await searchText(words, key, type ? `&type=${type}` : '');
      const context = `${label}: ${words.join(' ')}${type ? ` (type ${type})` : ''}`;
      assert.equal(found.count, expected.count, context);
      assert.deepEqual(found.ids, expected.ids.slice(0, 25), context);
    }
  };

  it('ranks plain-word queries exactly as FTS5 does, and counts the same matches', async () => {
    random = seeded(7);
    await create(key, 400);
    await create(other, 150);
    await assertRanksAsFts5(150, 'fresh');
    const state = await indexState();
    assert.deepEqual(state, { ready: 1, documents: 550, builds: 1 }, 'the index answered, built once');
  });

  it("sees another connection's creates, updates and deletes as soon as they commit", async () => {
    const second = await connectTestApi(api.databasePath, { backgroundWork: false });
    try {
      const made = await second.request('POST', '/v1/snapshots', {
        key: key.key,
        body: { name: 'Zephyrine lantern', core: 'A word no other snapshot has' },
      });
      assert.equal(made.status, 201);
      const id = made.body.data.id as string;
      assert.deepEqual((await searchText(['zephyrine'], key)).ids, [id]);

      const updated = await second.request('PUT', `/v1/snapshots/${id}`, {
        key: key.key,
        body: { name: 'Quillfeather lantern' },
      });
      assert.equal(updated.status, 200);
      assert.deepEqual((await searchText(['zephyrine'], key)).ids, []);
      assert.deepEqual((await searchText(['quillfeather'], key)).ids, [id]);

      assert.equal((await second.request('DELETE', `/v1/snapshots/${id}`, { key: key.key })).status, 200);
      assert.deepEqual(await searchText(['quillfeather', 'lantern'], key), { ids: [], count: 0 });
    } finally {
      await second.close();
    }
  });

  it('answers through FTS5 while a large backlog of changes is applied off the request path', async () => {
    const before = await indexState();
    const second = await connectTestApi(api.databasePath, { backgroundWork: false });
    try {
      // 300 changes from another connection: more than a search applies before it answers.
      for (let start = 0; start < 300; start += 50) {
        const made = await Promise.all(
          Array.from({ length: 50 }, () =>
            second.request('POST', '/v1/snapshots', { key: key.key, body: snapshotBody() }),
          ),
        );
        for (const res of made) assert.equal(res.status, 201);
      }
    } finally {
      await second.close();
    }
    await assertRanksAsFts5(20, 'with a backlog');
    let state = await indexState();
    for (let waited = 0; state.documents !== before.documents + 300 && waited < 30_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await indexState();
    }
    assert.deepEqual(state, { ...before, documents: before.documents + 300 }, 'caught up, without a rebuild');
    await assertRanksAsFts5(20, 'caught up');
  });

  it('builds again when another process pruned changes it had not applied', async () => {
    const before = await indexState();
    const listed = await api.request('GET', '/v1/snapshots?limit=2', { key });
    const [a, b] = (listed.body.data as { id: string }[]).map((snapshot) => snapshot.id) as [string, string];
    const writer = new Database(api.databasePath);
    try {
      writer.transaction(() => {
        writer.prepare('UPDATE snapshots SET name = ? WHERE id = ?').run('Vantablack orchid', a);
        writer.prepare('UPDATE snapshots SET name = ? WHERE id = ?').run('Vantablack heron', b);
        // As another process's pruning would: every change but the newest is gone from the log.
        writer.prepare('DELETE FROM search_changes WHERE seq < (SELECT max(seq) FROM search_changes)').run();
      })();
    } finally {
      writer.close();
    }
    assert.deepEqual((await searchText(['vantablack'], key)).ids.sort(), [a, b].sort());
    assert.deepEqual(await indexState(), { ...before, builds: before.builds + 1 }, 'built again, not caught up');
    await assertRanksAsFts5(20, 'after a gap in the log');
  });

  it('keeps ranking as FTS5 after updates and deletes change its statistics', async () => {
    const listed = await api.request('GET', `/v1/snapshots?limit=100`, { key });
    const ids = (listed.body.data as { id: string }[]).map((s) => s.id);
    for (const id of ids.slice(0, 40)) {
      const res = await api.request('PUT', `/v1/snapshots/${id}`, { key, body: { core: phrase(3, 10) } });
      assert.equal(res.status, 200);
    }
    for (const id of ids.slice(40, 70))
      assert.equal((await api.request('DELETE', `/v1/snapshots/${id}`, { key })).status, 200);
    await assertRanksAsFts5(100, 'after changes');
    // 70 changes are more than a search applies before it answers (REQUEST_CATCH_UP): FTS5
    // answered while the rest were applied in the background, a few a turn.
    let state = await indexState();
    for (let waited = 0; state.documents !== 820 && waited < 30_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await indexState();
    }
    assert.equal(state.documents, 820);
    await assertRanksAsFts5(100, 'caught up');
  });

  it('folds a grown delta into a base built in a worker, answering all the while', async () => {
    // 2,100 snapshots added to an index of 820 (300 of them in its delta): past the 2,000 that
    // start a rebuild, and a file of more than 2,000 rows, built in a worker, not in this thread.
    for (let i = 0; i < 7; i++) {
      await create(key, 300);
      assert.deepEqual((await searchText(['orbit'], key)).count, ftsRanking(['orbit'], key).count);
    }
    const late = await api.request('POST', '/v1/snapshots', { key, body: { name: 'Orbit ledger', core: 'late' } });
    assert.equal(late.status, 201);
    let state = await indexState();
    for (let waited = 0; (state.builds < 3 || state.documents !== 2_921) && waited < 60_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await searchText(['orbit'], key);
      state = await indexState();
    }
    assert.deepEqual(state, { ready: 1, documents: 2_921, builds: 3 });
    await assertRanksAsFts5(60, 'built in a worker');
  });

  it('ranks prefixes and phrases as FTS5 does: a small brain by its own rows, a large one over the index', async () => {
    // `key`'s brain (2,921 snapshots) is read over the whole index; `other`'s 150 are sought
    // row by row (SEEK_BRAIN_MAX): the two ways must rank and count alike.
    const words = WORDS.filter((w) => /^[a-z]{4,}$/.test(w));
    for (const k of [key, other]) {
      for (let i = 0; i < 40; i++) {
        const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
          const word = pick(words);
          return random() < 0.5 ? `${word.slice(0, 3 + Math.floor(random() * 2))}*` : `"${word} ${pick(words)}"`;
        });
        const expected = ftsRanking(parts, k);
        const found = await searchText(parts, k);
        const context = `${k === key ? 'large' : 'small'} brain: ${parts.join(' ')}`;
        assert.equal(found.count, expected.count, context);
        assert.deepEqual(found.ids, expected.ids.slice(0, 25), context);
      }
    }
  });
});
