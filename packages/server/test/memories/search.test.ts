// POST /v1/memories/search (design §12.3): text relevance as snapshot search ranks its text part,
// `score` in [0, 1] ordering the results, `similarity` its 4-decimal text, `count` of all matches.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

interface Hit {
  id: string;
  content: string;
  memory_type: string;
  score: number;
  similarity: string;
  brain_id: string;
}

describe('memory search', () => {
  let api: TestApi;
  let key: TestKey;
  const clock = manualClock();
  const ids: Record<string, string> = {};
  before(async () => {
    api = await startTestApi({ clock });
    key = await api.newKey();
    const memories: [string, Record<string, unknown>][] = [
      ['tagged', { content: 'We agreed on a weekly cadence for reviews.', tags: ['kubernetes'] }],
      ['once', { content: 'The kubernetes cluster was upgraded last night with no downtime at all.' }],
      ['twice', { content: 'Kubernetes upgrade: kubernetes nodes drained one by one.', memory_type: 'event' }],
      ['other', { content: 'Lunch is at noon on Fridays.', memory_type: 'preference' }],
      ['older-tie', { content: 'Deploy freeze begins on the holidays.' }],
      ['newer-tie', { content: 'Deploy freeze begins on the holidays.' }],
    ];
    for (const [name, body] of memories) {
      clock.advance(1000);
      const res = await api.request('POST', '/v1/memories', { key, body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids[name] = res.body.data.id;
    }
  });
  after(() => api.close());

  const search = async (body: Record<string, unknown>, owner = key) => {
    const res = await api.request('POST', '/v1/memories/search', { key: owner, body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { data: Hit[]; count: number; query: string };
  };

  it('finds matches, ordered by score, with scores in [0, 1] and similarity their 4-decimal text', async () => {
    const result = await search({ query: '  kubernetes  ' });
    assert.equal(result.query, 'kubernetes', 'the trimmed query is echoed');
    assert.equal(result.count, 3);
    assert.deepEqual(new Set(result.data.map((h) => h.id)), new Set([ids.tagged, ids.once, ids.twice]));
    for (let i = 0; i < result.data.length; i++) {
      const hit = result.data[i] as Hit;
      assert.ok(hit.score >= 0 && hit.score <= 1, `score ${hit.score}`);
      assert.equal(hit.similarity, hit.score.toFixed(4));
      assert.match(hit.similarity, /^\d\.\d{4}$/);
      if (i > 0) assert.ok((result.data[i - 1] as Hit).score >= hit.score, 'ordered by score');
    }
    assert.equal(result.data[0]?.score, 0.95, 'the best text match scores the text ceiling, as in snapshot search');
    const rank = (name: string) => result.data.findIndex((h) => h.id === ids[name]);
    assert.ok(rank('tagged') < rank('once'), 'a word in a tag counts above one mention in the content');
    assert.ok(rank('twice') < rank('once'), 'more mentions in a shorter text rank higher');
  });

  it('returns every memory field with the score', async () => {
    const [hit] = (await search({ query: 'lunch' })).data;
    assert.ok(hit);
    const memory = (await api.request('GET', `/v1/memories/${hit.id}`, { key })).body.data;
    const { score, similarity, ...fields } = hit;
    assert.deepEqual(fields, memory);
    assert.equal(typeof score, 'number');
    assert.equal(typeof similarity, 'string');
  });

  it('limit cuts the page, count still counts every match', async () => {
    const page = await search({ query: 'kubernetes', limit: 1 });
    assert.equal(page.data.length, 1);
    assert.equal(page.count, 3);
  });

  it('ties rank the newer first', async () => {
    const result = await search({ query: 'deploy freeze' });
    assert.deepEqual(
      result.data.map((h) => h.id),
      [ids['newer-tie'], ids['older-tie']],
    );
    assert.equal(result.data[0]?.score, result.data[1]?.score);
  });

  it('filters by memory_type', async () => {
    const result = await search({ query: 'kubernetes', memory_type: 'event' });
    assert.deepEqual(
      result.data.map((h) => h.id),
      [ids.twice],
    );
    assert.equal(result.count, 1);
  });

  it('stems words, and reads prefixes and phrases', async () => {
    assert.ok(
      (await search({ query: 'upgrades' })).data.some((h) => h.id === ids.once),
      'upgrades ~ upgraded',
    );
    assert.ok((await search({ query: 'kuber*' })).count === 3, 'a prefix');
    const phrase = await search({ query: '"nodes drained"' });
    assert.deepEqual(
      phrase.data.map((h) => h.id),
      [ids.twice],
    );
  });

  it('stop words alone and words nowhere find nothing, with 200', async () => {
    assert.deepEqual(await search({ query: 'the and of' }), { data: [], count: 0, query: 'the and of' });
    assert.equal((await search({ query: 'xylophone' })).count, 0);
  });

  it('searches only the brain asked for (default: the key’s), never another account’s', async () => {
    const other = await api.newKey();
    await api.request('POST', '/v1/memories', { key: other, body: { content: 'kubernetes in another account' } });
    const mine = await search({ query: 'kubernetes' });
    assert.ok(mine.data.every((h) => h.brain_id === key.brainId));
    const brain = await api.request('POST', '/v1/brains', { key, body: { name: 'second' } });
    assert.equal((await search({ query: 'kubernetes', brain_id: brain.body.data.id })).count, 0);
    const foreign = await api.request('POST', '/v1/memories/search', {
      key: other,
      body: { query: 'kubernetes', brain_id: key.brainId },
    });
    assert.equal(foreign.status, 404);
  });

  it('refuses a missing or empty query, bad limits, unknown fields and types with 400', async () => {
    for (const body of [
      {},
      { query: '' },
      { query: '   ' },
      { query: 'x'.repeat(501) },
      { query: 'x', limit: 0 },
      { query: 'x', limit: 101 },
      { query: 'x', limit: 1.5 },
      { query: 'x', limit: '5' },
      { query: 'x', memory_type: 'opinion' },
      { query: 'x', q: 'x' },
    ]) {
      const res = await api.request('POST', '/v1/memories/search', { key, body });
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'BAD_REQUEST');
    }
    assert.equal((await search({ query: 'x', limit: 100 })).count, 0);
  });

  it('sees a write as soon as it is acknowledged, and an update re-indexes the memory', async () => {
    const made = await api.request('POST', '/v1/memories', { key, body: { content: 'quasar observation' } });
    assert.equal((await search({ query: 'quasar' })).count, 1);
    await api.request('PUT', `/v1/memories/${made.body.data.id}`, {
      key,
      body: { content: 'pulsar', tags: ['astro'] },
    });
    assert.equal((await search({ query: 'quasar' })).count, 0);
    assert.equal((await search({ query: 'pulsar' })).count, 1);
    assert.equal((await search({ query: 'astro' })).count, 1);
  });

  it('contractions do not match each other: "can\'t" is not "won\'t" (issue 49)', async () => {
    const owner = await api.newKey();
    for (const content of ["I won't make it to the standup tomorrow.", 'Tom cannot eat peanuts: he is allergic.']) {
      const res = await api.request('POST', '/v1/memories', { key: owner, body: { content, speaker: 'Ana' } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const found = await search({ query: "What can't Tom eat?" }, owner);
    assert.deepEqual(
      found.data.map((h) => h.content),
      ['Tom cannot eat peanuts: he is allergic.'],
      'only the memory about Tom; the "t" of two contractions is no shared word',
    );
    const wont = await search({ query: "who won't make the standup" }, owner);
    assert.equal(wont.data[0]?.content, "I won't make it to the standup tomorrow.");
  });

  it('a memory that gives the asked kind of value is raised by what it says now, after an update', async () => {
    const owner = await api.newKey();
    const write = async (content: string) => {
      const res = await api.request('POST', '/v1/memories', { key: owner, body: { content } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };
    const dated = await write('The launch is on Friday');
    const open = await write('The launch is pending');
    const first = async () => (await search({ query: 'When is the launch?' }, owner)).data.map((h) => h.id);
    assert.deepEqual(await first(), [dated, open], 'the one giving a date first, though longer');
    for (const [id, content] of [
      [dated, 'The launch is pending'],
      [open, 'The launch is on Monday'],
    ] as const) {
      const res = await api.request('PUT', `/v1/memories/${id}`, { key: owner, body: { content } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    assert.deepEqual(await first(), [open, dated], 'the date is now in the other one');
  });
});
