import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { behave, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const CONTENT = `Spaced repetition is defined as reviewing material at increasing intervals to strengthen memory.
The Feynman technique: first, pick a concept; second, explain it in plain words to a child; third, find the gaps and go back to the source.
"The first principle is that you must not fool yourself, and you are the easiest person to fool." said Richard Feynman.
For example, in 2019 a team of students who reviewed weekly remembered twice as much at the end of the term.`;

describe('specific knowledge without an LLM', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
    other = await api.newKey();
  });
  after(() => api.close());

  const newBrain = async (owner = key) => {
    const res = await api.request('POST', '/v1/brains', { key: owner, body: { name: 'learning' } });
    assert.equal(res.status, 201);
    return res.body.data.id as string;
  };
  const ingest = (body: Record<string, unknown>, owner = key) =>
    api.request('POST', '/v1/specific-knowledge/ingest', { key: owner, body });
  const counts = async (brainId: string) => {
    const res = await api.request('GET', `/v1/brains/${brainId}`, { key });
    return { snapshots: res.body.data.snapshot_count as number, edges: res.body.data.edge_count as number };
  };

  it('ingests a source: 201 with its entries, and snapshots made from them', async () => {
    const brainId = await newBrain();
    const res = await ingest({
      source_type: 'manual',
      title: 'Learning how to learn',
      author: 'Barbara Oakley',
      content: CONTENT,
      domain: 'learning',
      tags: ['memory'],
      brain_id: brainId,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { data } = res.body;
    assert.match(data.source_id, /^src_/);
    assert.equal(res.headers.location, `/v1/specific-knowledge/sources/${data.source_id}`);
    assert.equal(data.title, 'Learning how to learn');
    assert.equal(data.author, 'Barbara Oakley');
    assert.ok(data.entries.length >= 2, JSON.stringify(data.entries));
    assert.equal(data.entries_count, data.entries.length);
    for (const entry of data.entries) {
      assert.match(entry.id, /^ske_/);
      assert.ok(
        ['concept', 'framework', 'protocol', 'principle', 'technique', 'quote', 'case_study', 'definition'].includes(
          entry.entry_type,
        ),
      );
      assert.ok(entry.title.length >= 1 && entry.title.length <= 500);
      assert.ok(entry.content.length >= 1);
      assert.equal(entry.domain, 'learning');
      assert.equal(entry.mastery, 0);
    }
    assert.ok(data.snapshots.length >= 1);
    for (const snapshot of data.snapshots) {
      assert.equal(snapshot.source_type, 'manual');
      assert.equal(snapshot.source_id, data.source_id);
      assert.ok(snapshot.tags.includes('memory'));
    }
    assert.equal((await counts(brainId)).snapshots, data.snapshots.length);

    const source = await api.request('GET', `/v1/specific-knowledge/sources/${data.source_id}`, { key });
    assert.equal(source.status, 200, JSON.stringify(source.body));
    assert.equal(source.body.data.id, data.source_id);
    assert.equal(source.body.data.source_type, 'manual');
    assert.equal(source.body.data.entries_count, data.entries.length);
    assert.deepEqual(source.body.data.entries, data.entries, 'the entries, in the order they were extracted');
    assert.deepEqual(
      source.body.data.snapshot_ids,
      data.snapshots.map((s: { id: string }) => s.id),
    );
  });

  it('makes no snapshot twice: the same content again adds a source and entries, not snapshots', async () => {
    const brainId = await newBrain();
    const first = await ingest({ source_type: 'article', title: 'Memory', content: CONTENT, brain_id: brainId });
    assert.equal(first.status, 201);
    const again = await ingest({ source_type: 'article', title: 'Memory', content: CONTENT, brain_id: brainId });
    assert.equal(again.status, 201);
    assert.deepEqual(again.body.data.snapshots, []);
    assert.equal(again.body.data.entries_count, first.body.data.entries_count);
    assert.equal((await counts(brainId)).snapshots, first.body.data.snapshots.length);
  });

  it('create_snapshots: false keeps only the entries', async () => {
    const brainId = await newBrain();
    const res = await ingest({
      source_type: 'manual',
      title: 'T',
      content: CONTENT,
      brain_id: brainId,
      create_snapshots: false,
    });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body.data.snapshots, []);
    assert.deepEqual(res.body.data.edges, []);
    assert.ok(res.body.data.entries.length >= 1);
    assert.equal((await counts(brainId)).snapshots, 0);
  });

  it('needs content: 400 for document and manual, 422 for the rest without an LLM; nothing written', async () => {
    const brainId = await newBrain();
    for (const source_type of ['document', 'manual']) {
      const res = await ingest({ source_type, title: 'No text', brain_id: brainId });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.details.field, 'content');
    }
    for (const source_type of ['youtube', 'book', 'article', 'course', 'podcast']) {
      const res = await ingest({
        source_type,
        title: 'Atomic Habits',
        url: 'https://example.com/x',
        brain_id: brainId,
      });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'UNPROCESSABLE');
      assert.equal(res.body.error.details.field, 'content');
    }
    const sources = await api.request('GET', `/v1/specific-knowledge/sources?brain_id=${brainId}`, { key });
    assert.equal(sources.body.count, 0);
  });

  it('answers 400 for each bad body, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'x', content: CONTENT }, 'source_type'],
      [{ source_type: 'blog', title: 'x', content: CONTENT }, 'source_type'],
      [{ source_type: 'manual', content: CONTENT }, 'title'],
      [{ source_type: 'manual', title: '   ', content: CONTENT }, 'title'],
      [{ source_type: 'manual', title: 't'.repeat(501), content: CONTENT }, 'title'],
      [{ source_type: 'manual', title: 'x', content: 'c'.repeat(1_000_001) }, 'content'],
      [{ source_type: 'manual', title: 'x', content: CONTENT, tags: 'memory' }, 'tags'],
      [{ source_type: 'manual', title: 'x', content: CONTENT, create_snapshots: 'no' }, 'create_snapshots'],
      [{ source_type: 'manual', title: 'x', content: CONTENT, mastery: 1 }, 'mastery'],
    ];
    for (const [body, field] of cases) {
      const res = await ingest(body);
      assert.equal(res.status, 400, `${field}: ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.ok(
        res.body.error.details.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.error.details)}`,
      );
    }
    const foreign = await ingest({
      source_type: 'manual',
      title: 'x',
      content: CONTENT,
      brain_id: await newBrain(other),
    });
    assert.equal(foreign.status, 404);
  });

  it('searches entries by text, filtered by domain and type, scored 0 to 1', async () => {
    const brainId = await newBrain();
    await ingest({ source_type: 'manual', title: 'Learning', content: CONTENT, domain: 'learning', brain_id: brainId });
    await ingest({
      source_type: 'manual',
      title: 'Cooking',
      content: 'Sourdough bread is defined as bread leavened by a culture of wild yeast and bacteria kept for years.',
      domain: 'cooking',
      brain_id: brainId,
    });
    const search = (body: Record<string, unknown>, owner = key) =>
      api.request('POST', '/v1/specific-knowledge/search', { key: owner, body: { brain_id: brainId, ...body } });

    const res = await search({ query: '  spaced repetition  ' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.query, 'spaced repetition');
    assert.ok(res.body.data.length >= 1);
    assert.equal(res.body.count, res.body.data.length);
    assert.match(res.body.data[0].content, /Spaced repetition/);
    for (const hit of res.body.data) {
      assert.ok(hit.score > 0 && hit.score <= 1);
      assert.equal(hit.similarity, hit.score.toFixed(4));
      assert.match(hit.id, /^ske_/);
    }
    for (let i = 1; i < res.body.data.length; i++) assert.ok(res.body.data[i - 1].score >= res.body.data[i].score);

    const bread = await search({ query: 'bread yeast' });
    assert.equal(bread.body.data[0].domain, 'cooking');
    assert.deepEqual((await search({ query: 'bread yeast', domain: 'learning' })).body.data, []);
    const typed = await search({ query: 'bread', entry_type: bread.body.data[0].entry_type });
    assert.ok(typed.body.data.length >= 1);
    assert.equal((await search({ query: 'zzzunknownword' })).body.count, 0);
    assert.equal((await search({ query: 'the of and' })).body.count, 0, 'stop words alone match nothing');

    assert.equal((await search({ query: '' })).status, 400);
    assert.equal((await search({ query: 'x', limit: 0 })).status, 400);
    assert.equal((await search({ query: 'x', entry_type: 'essay' })).status, 400);
    assert.equal((await search({ query: 'bread' }, other)).status, 404);
    const limited = await search({ query: 'spaced repetition feynman bread', limit: 1 });
    assert.equal(limited.body.data.length, 1);
    assert.ok(limited.body.count >= 2, 'count is of all matches');
  });

  it('lists sources newest first with paging; deleting one takes its entries but not its snapshots', async () => {
    const brainId = await newBrain();
    const made = [];
    for (const title of ['One', 'Two', 'Three']) {
      const res = await ingest({ source_type: 'manual', title, content: `${title}: ${CONTENT}`, brain_id: brainId });
      made.push(res.body.data);
    }
    const list = await api.request('GET', `/v1/specific-knowledge/sources?brain_id=${brainId}`, { key });
    assert.equal(list.status, 200);
    assert.equal(list.body.count, 3);
    assert.deepEqual(
      list.body.data.map((s: { title: string }) => s.title),
      ['Three', 'Two', 'One'],
    );
    const page = await api.request('GET', `/v1/specific-knowledge/sources?brain_id=${brainId}&limit=1&cursor=`, {
      key,
    });
    assert.equal(page.body.data[0].title, 'Three');
    assert.equal(typeof page.body.next_cursor, 'string');
    const next = await api.request(
      'GET',
      `/v1/specific-knowledge/sources?brain_id=${brainId}&limit=2&cursor=${page.body.next_cursor}`,
      { key },
    );
    assert.deepEqual(
      next.body.data.map((s: { title: string }) => s.title),
      ['Two', 'One'],
    );
    assert.equal(next.body.next_cursor, null);
    assert.equal(
      (await api.request('GET', `/v1/specific-knowledge/sources?brain_id=${brainId}`, { key: other })).status,
      404,
    );

    const gone = made[0];
    assert.equal(
      (await api.request('DELETE', `/v1/specific-knowledge/sources/${gone.source_id}`, { key: other })).status,
      404,
    );
    const deleted = await api.request('DELETE', `/v1/specific-knowledge/sources/${gone.source_id}`, { key });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { data: { success: true } });
    assert.equal((await api.request('GET', `/v1/specific-knowledge/sources/${gone.source_id}`, { key })).status, 404);
    assert.equal(
      (await api.request('GET', `/v1/specific-knowledge/entries/${gone.entries[0].id}`, { key })).status,
      404,
    );
    for (const snapshot of gone.snapshots) {
      assert.equal((await api.request('GET', `/v1/snapshots/${snapshot.id}`, { key })).status, 200, 'snapshots stay');
    }
    assert.equal(
      (await api.request('DELETE', `/v1/specific-knowledge/sources/${gone.source_id}`, { key })).status,
      404,
    );
  });

  it('reads and updates an entry with the rules of snapshot updates', async () => {
    const brainId = await newBrain();
    const made = await ingest({ source_type: 'manual', title: 'E', content: CONTENT, brain_id: brainId });
    const entry = made.body.data.entries[0];
    const url = `/v1/specific-knowledge/entries/${entry.id}`;
    const read = await api.request('GET', url, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, entry);
    assert.equal((await api.request('GET', url, { key: other })).status, 404);

    const put = (body: unknown, owner = key) => api.request('PUT', url, { key: owner, body });
    const updated = await put({ mastery: 0.6, title: '  Spacing  ' });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.mastery, 0.6);
    assert.equal(updated.body.data.title, 'Spacing');
    assert.equal(updated.body.data.content, entry.content);
    assert.ok(updated.body.data.updated_at > entry.updated_at);
    assert.equal(updated.body.data.created_at, entry.created_at);
    const again = await put({ ...updated.body.data, mastery: 0.7 });
    assert.equal(again.status, 200, 'GET, change, PUT back works');
    assert.ok(again.body.data.updated_at > updated.body.data.updated_at);
    const cleared = await put({ domain: null });
    assert.equal(cleared.body.data.domain, null);

    assert.equal((await put({})).status, 400);
    assert.equal((await put({ mastery: 1.5 })).status, 400);
    assert.equal((await put({ mastery: 0.2, id: 'ske_other' })).status, 400);
    assert.equal((await put({ entry_type: 'quote' })).status, 400, 'entry_type is read-only');
    assert.equal((await put({ title: '' })).status, 400);
    assert.equal((await put({ colour: 'red' })).status, 400);
    assert.equal((await put({ mastery: 0.2 }, other)).status, 404);
    assert.equal((await api.request('GET', url, { key })).body.data.mastery, 0.7);
  });

  it('serves /api/v1 the same', async () => {
    const res = await api.request('POST', '/api/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'manual', title: 'Mirror', content: CONTENT, brain_id: await newBrain() },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.location, `/api/v1/specific-knowledge/sources/${res.body.data.source_id}`);
  });
});

describe('specific knowledge with an LLM', () => {
  let llm: FakeOpenAI;
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    llm = await startFakeOpenAI();
    api = await startTestApi({
      llm: { baseUrl: llm.url, apiKey: undefined, model: 'fake', timeoutMs: 2_000, contextTokens: 4096 },
    });
    key = await api.newKey();
  });
  after(async () => {
    await api.close();
    await llm.close();
  });

  it('learns a book from its title alone, and keeps the entries the LLM gives', async () => {
    const good = [
      { entry_type: 'framework', title: 'Habit loop', content: 'Cue, craving, response, reward.' },
      { entry_type: 'principle', title: 'Identity first', content: 'Every action is a vote for who you become.' },
    ];
    llm.script(
      'chat',
      behave.answer({
        content: JSON.stringify({ entries: [...good, { entry_type: 'essay', title: 'Bad type', content: 'x' }] }),
      }),
      behave.answer({ content: JSON.stringify({ entries: good }) }),
    );
    const res = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'book', title: 'Atomic Habits', author: 'James Clear' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const sent = llm.callsTo('chat')[0]!.body;
    assert.match(JSON.stringify(sent.messages), /Atomic Habits/);
    assert.match(JSON.stringify(sent.messages), /James Clear/);
    assert.equal(sent.response_format.json_schema.name, 'entries');
    assert.deepEqual(
      res.body.data.entries.map((e: { entry_type: string; title: string }) => [e.entry_type, e.title]),
      [
        ['framework', 'Habit loop'],
        ['principle', 'Identity first'],
      ],
      'an answer outside the schema is sent back, never stored',
    );
    assert.equal(llm.callsTo('chat').length, 2);
  });

  it('answers 503 and writes nothing when the provider is down', async () => {
    llm.script('chat', behave.status(503, { retryAfter: 2 }));
    const res = await api.request('POST', '/v1/specific-knowledge/ingest', {
      key,
      body: { source_type: 'book', title: 'Deep Work' },
    });
    assert.equal(res.status, 503);
    assert.equal(res.headers['retry-after'], '2');
    const sources = await api.request('GET', '/v1/specific-knowledge/sources', { key });
    assert.ok(!sources.body.data.some((s: { title: string }) => s.title === 'Deep Work'));
  });
});
