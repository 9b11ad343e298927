// Memories (design §12): create with every bound, read, list with filters and pages, update and
// delete with the rules of snapshots, through HTTP on the configured store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const MEMORY_FIELDS = [
  'id',
  'brain_id',
  'content',
  'memory_type',
  'speaker',
  'tags',
  'source_emotion',
  'emotional_valence',
  'emotional_intensity',
  'occurred_at',
  'session_id',
  'promoted_to',
  'superseded_by',
  'superseded_at',
  'created_at',
  'updated_at',
].sort();
const MEMORY_TYPES = ['fact', 'decision', 'insight', 'story', 'framework', 'preference', 'event'];

describe('memories', () => {
  let api: TestApi;
  let key: TestKey;
  const clock = manualClock();
  before(async () => {
    api = await startTestApi({ clock });
    key = await api.newKey();
  });
  after(() => api.close());

  const remember = (body: unknown, owner = key, path = '/v1/memories') =>
    api.request('POST', path, { key: owner, body });
  const badField = (res: { status: number; body: any }, field: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'BAD_REQUEST');
    assert.ok(
      res.body.error.details.errors.some((e: { field: string }) => e.field === field),
      `names ${field}: ${JSON.stringify(res.body)}`,
    );
  };

  it('POST /v1/memories: 201 with every field, null when unset, defaults applied', async () => {
    const res = await remember({ content: '  The deploy window is Tuesday.  ' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const memory = res.body.data;
    assert.deepEqual(Object.keys(memory).sort(), MEMORY_FIELDS);
    assert.match(memory.id, /^mem_[0-9A-Za-z]{20,}$/);
    assert.equal(res.headers.location, `/v1/memories/${memory.id}`);
    assert.equal(memory.brain_id, key.brainId);
    assert.equal(memory.content, 'The deploy window is Tuesday.', 'stored trimmed');
    assert.equal(memory.memory_type, 'fact');
    assert.deepEqual(memory.tags, []);
    for (const field of ['speaker', 'source_emotion', 'emotional_valence', 'emotional_intensity', 'promoted_to']) {
      assert.equal(memory[field], null, field);
    }
    assert.equal(memory.created_at, '2026-01-01T00:00:00.000Z');
    assert.equal(memory.updated_at, memory.created_at);
    const read = await api.request('GET', `/v1/memories/${memory.id}`, { key });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, memory);
  });

  it('POST /v1/memories/remember is an alias, and /api/v1 mirrors both', async () => {
    for (const path of ['/v1/memories/remember', '/api/v1/memories', '/api/v1/memories/remember']) {
      const res = await remember({ content: `via ${path}` }, key, path);
      assert.equal(res.status, 201, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.data.content, `via ${path}`);
      const read = await api.request('GET', `/v1/memories/${res.body.data.id}`, { key });
      assert.equal(read.status, 200);
    }
  });

  it('takes every field, each of the seven memory types, and tags as snapshots do', async () => {
    for (const memory_type of MEMORY_TYPES) {
      const res = await remember({
        content: `A ${memory_type}`,
        memory_type,
        speaker: 'Ada',
        tags: [' ops ', 'ops', 'deploys'],
        source_emotion: 'relief',
        emotional_valence: -1,
        emotional_intensity: 1,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const m = res.body.data;
      assert.equal(m.memory_type, memory_type);
      assert.equal(m.speaker, 'Ada');
      assert.deepEqual(m.tags, ['ops', 'deploys'], 'trimmed, duplicates dropped keeping the first');
      assert.equal(m.source_emotion, 'relief');
      assert.equal(m.emotional_valence, -1);
      assert.equal(m.emotional_intensity, 1);
    }
  });

  it('accepts every bound exactly and refuses one past it, naming the field', async () => {
    const ok = await remember({
      content: 'x'.repeat(10_000),
      speaker: 's'.repeat(200),
      source_emotion: 'e'.repeat(64),
      tags: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(64, 't')),
      emotional_valence: 1,
      emotional_intensity: 0,
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body).slice(0, 300));
    badField(await remember({ content: 'x'.repeat(10_001) }), 'content');
    badField(await remember({ content: '   ' }), 'content');
    badField(await remember({ content: '' }), 'content');
    badField(await remember({}), 'content');
    badField(await remember({ content: 'c', speaker: 's'.repeat(201) }), 'speaker');
    badField(await remember({ content: 'c', source_emotion: 'e'.repeat(65) }), 'source_emotion');
    badField(await remember({ content: 'c', emotional_valence: -1.01 }), 'emotional_valence');
    badField(await remember({ content: 'c', emotional_valence: 1.5 }), 'emotional_valence');
    badField(await remember({ content: 'c', emotional_intensity: -0.1 }), 'emotional_intensity');
    badField(await remember({ content: 'c', emotional_intensity: 1.1 }), 'emotional_intensity');
    badField(await remember({ content: 'c', emotional_intensity: '0.5' }), 'emotional_intensity');
    badField(await remember({ content: 'c', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), 'tags');
    badField(await remember({ content: 'c', tags: ['x'.repeat(65)] }), 'tags[0]');
    badField(await remember({ content: 'c', tags: ['  '] }), 'tags[0]');
    badField(await remember({ content: 42 }), 'content');
  });

  it('refuses an unknown memory_type listing the allowed values', async () => {
    const res = await remember({ content: 'c', memory_type: 'opinion' });
    badField(res, 'memory_type');
    for (const type of MEMORY_TYPES) assert.ok(JSON.stringify(res.body).includes(type), type);
  });

  it('refuses unknown and read-only fields on create', async () => {
    badField(await remember({ content: 'c', mood: 'good' }), 'mood');
    for (const field of ['id', 'promoted_to', 'created_at', 'updated_at']) {
      badField(await remember({ content: 'c', [field]: 'x' }), field);
    }
  });

  it('brain_id: another brain of the account, or 404 for one that is not the caller’s', async () => {
    const brain = await api.request('POST', '/v1/brains', { key, body: { name: 'agent' } });
    const res = await remember({ content: 'in the other brain', brain_id: brain.body.data.id });
    assert.equal(res.status, 201);
    assert.equal(res.body.data.brain_id, brain.body.data.id);
    const stranger = await api.newKey();
    const foreign = await remember({ content: 'not yours', brain_id: brain.body.data.id }, stranger);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'NOT_FOUND');
  });

  describe('GET /v1/memories', () => {
    let owner: TestKey;
    const ids: string[] = [];
    before(async () => {
      owner = await api.newKey();
      const bodies = [
        { content: 'one', memory_type: 'fact', speaker: 'Ada', tags: ['a'] },
        { content: 'two', memory_type: 'decision', speaker: 'Bob', tags: ['a', 'b'] },
        { content: 'three', memory_type: 'decision', speaker: 'Ada' },
        { content: 'four', memory_type: 'event', tags: ['b'] },
        { content: 'five', memory_type: 'fact', speaker: 'Ada', tags: ['b'] },
      ];
      for (const body of bodies) {
        clock.advance(1000);
        const res = await remember(body, owner);
        assert.equal(res.status, 201);
        ids.push(res.body.data.id);
      }
    });
    const list = async (query = '') => {
      const res = await api.request('GET', `/v1/memories${query}`, { key: owner });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as { data: { id: string; content: string }[]; count: number; next_cursor?: string | null };
    };

    it('lists newest first with count of all matches', async () => {
      const page = await list();
      assert.deepEqual(
        page.data.map((m) => m.content),
        ['five', 'four', 'three', 'two', 'one'],
      );
      assert.equal(page.count, 5);
      assert.equal('next_cursor' in page, false);
    });

    it('filters by memory_type, speaker and tag, together too; count follows the filter', async () => {
      assert.deepEqual(
        (await list('?memory_type=decision')).data.map((m) => m.content),
        ['three', 'two'],
      );
      assert.deepEqual(
        (await list('?speaker=Ada')).data.map((m) => m.content),
        ['five', 'three', 'one'],
      );
      assert.deepEqual(
        (await list('?tag=b')).data.map((m) => m.content),
        ['five', 'four', 'two'],
      );
      assert.deepEqual(
        (await list('?tag=%20b%20')).data.map((m) => m.content),
        ['five', 'four', 'two'],
        'the filter is trimmed, as stored tags are',
      );
      const both = await list('?tag=b&speaker=Ada&memory_type=fact');
      assert.deepEqual(
        both.data.map((m) => m.content),
        ['five'],
      );
      assert.equal(both.count, 1);
      assert.equal((await list('?tag=nothing')).count, 0);
    });

    it('pages by offset and by cursor, the same items', async () => {
      const first = await list('?limit=2');
      const second = await list('?limit=2&offset=2');
      assert.equal(first.count, 5);
      assert.deepEqual(
        [...first.data, ...second.data].map((m) => m.content),
        ['five', 'four', 'three', 'two'],
      );
      const seen: string[] = [];
      let cursor = '';
      for (;;) {
        const page = await list(`?limit=2&cursor=${cursor}`);
        seen.push(...page.data.map((m) => m.content));
        if (page.next_cursor === null) break;
        cursor = page.next_cursor as string;
      }
      assert.deepEqual(seen, ['five', 'four', 'three', 'two', 'one']);
    });

    it('refuses bad paging and filters with 400', async () => {
      for (const query of [
        '?limit=0',
        '?limit=101',
        '?limit=1.5',
        '?limit=abc',
        '?offset=-1',
        '?memory_type=x',
        '?cursor=zzz',
      ]) {
        const res = await api.request('GET', `/v1/memories${query}`, { key: owner });
        assert.equal(res.status, 400, `${query}: ${JSON.stringify(res.body)}`);
      }
      const max = await list('?limit=100');
      assert.equal(max.data.length, 5);
    });

    it('lists another brain with brain_id, and 404 for a brain not the caller’s', async () => {
      const res = await api.request('GET', `/v1/memories?brain_id=${owner.brainId}`, { key });
      assert.equal(res.status, 404);
      const mine = await api.request('GET', `/v1/memories?brain_id=${key.brainId}`, { key });
      assert.equal(mine.status, 200);
      assert.ok(mine.body.data.every((m: { brain_id: string }) => m.brain_id === key.brainId));
    });
  });

  describe('PUT and DELETE /v1/memories/:id', () => {
    it('updates fields, clears with null, keeps created_at, moves updated_at strictly forward', async () => {
      const made = (await remember({ content: 'draft', speaker: 'Ada', tags: ['x'], emotional_valence: 0.5 })).body
        .data;
      // Same millisecond: updated_at still moves forward.
      const first = await api.request('PUT', `/v1/memories/${made.id}`, {
        key,
        body: { content: ' final ', memory_type: 'decision', speaker: null, tags: null, emotional_valence: null },
      });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const m = first.body.data;
      assert.equal(m.content, 'final');
      assert.equal(m.memory_type, 'decision');
      assert.equal(m.speaker, null);
      assert.deepEqual(m.tags, []);
      assert.equal(m.emotional_valence, null);
      assert.equal(m.created_at, made.created_at);
      assert.ok(m.updated_at > made.updated_at, `${m.updated_at} > ${made.updated_at}`);
      const second = await api.request('PUT', `/v1/memories/${made.id}`, { key, body: { source_emotion: 'calm' } });
      assert.ok(second.body.data.updated_at > m.updated_at);
      assert.deepEqual((await api.request('GET', `/v1/memories/${made.id}`, { key })).body.data, second.body.data);
    });

    it('GET, change, PUT back works: read-only fields unchanged are accepted, changed ones are a 400', async () => {
      const made = (await remember({ content: 'round trip' })).body.data;
      const back = await api.request('PUT', `/v1/memories/${made.id}`, { key, body: { ...made, content: 'changed' } });
      assert.equal(back.status, 200, JSON.stringify(back.body));
      assert.equal(back.body.data.content, 'changed');
      const changes: [string, string][] = [
        ['id', 'mem_other'],
        ['brain_id', 'brain_other'],
        ['promoted_to', 'snap_other'],
        ['created_at', '2020-01-01T00:00:00.000Z'],
      ];
      for (const [field, value] of changes) {
        badField(
          await api.request('PUT', `/v1/memories/${made.id}`, { key, body: { content: 'x', [field]: value } }),
          field,
        );
      }
    });

    it('refuses an empty body, null content or type, unknown fields and bad values', async () => {
      const made = (await remember({ content: 'strict' })).body.data;
      const put = (body: unknown) => api.request('PUT', `/v1/memories/${made.id}`, { key, body });
      assert.equal((await put({})).status, 400);
      badField(await put({ content: null }), 'content');
      badField(await put({ memory_type: null }), 'memory_type');
      badField(await put({ content: '  ' }), 'content');
      badField(await put({ colour: 'red' }), 'colour');
      badField(await put({ emotional_intensity: 2 }), 'emotional_intensity');
      const nothing = await put({ id: made.id });
      assert.equal(nothing.status, 400, 'read-only fields alone are nothing to update');
      assert.deepEqual((await api.request('GET', `/v1/memories/${made.id}`, { key })).body.data, made);
    });

    it('404 for a missing id on GET, PUT and DELETE; a 400 body on a missing id is still a 400', async () => {
      const missing = 'mem_00000000000000000000000000';
      for (const method of ['GET', 'DELETE']) {
        const res = await api.request(method, `/v1/memories/${missing}`, { key });
        assert.equal(res.status, 404, method);
        assert.equal(res.body.error.code, 'NOT_FOUND');
      }
      assert.equal((await api.request('PUT', `/v1/memories/${missing}`, { key, body: { content: 'x' } })).status, 404);
      assert.equal((await api.request('PUT', `/v1/memories/${missing}`, { key, body: { content: 5 } })).status, 400);
    });

    it('DELETE answers { data: { success: true } } and the memory is gone from reads, lists and search', async () => {
      const made = (await remember({ content: 'ephemeral zanzibar' })).body.data;
      const res = await api.request('DELETE', `/v1/memories/${made.id}`, { key });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { data: { success: true } });
      assert.equal((await api.request('GET', `/v1/memories/${made.id}`, { key })).status, 404);
      assert.equal((await api.request('DELETE', `/v1/memories/${made.id}`, { key })).status, 404);
      const list = await api.request('GET', '/v1/memories?limit=100', { key });
      assert.ok(!list.body.data.some((m: { id: string }) => m.id === made.id));
      const found = await api.request('POST', '/v1/memories/search', { key, body: { query: 'zanzibar' } });
      assert.equal(found.body.count, 0);
    });
  });
});
