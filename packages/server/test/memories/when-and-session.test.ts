// Design §12: when a memory happened (occurred_at), which conversation it belongs to
// (session_id), the list and search filters on them, and the context around a search hit —
// through HTTP on the configured store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issueApiKey } from '../../src/domain/keys/index.js';
import { importFile, importSource } from '../../src/domain/transfer/index.js';
import { manualClock, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { exportText, parseLines, writeFile } from '../transfer/support.js';

describe('memories: occurred_at, session_id, filters and context', () => {
  let api: TestApi;
  let key: TestKey;
  const clock = manualClock();
  before(async () => {
    api = await startTestApi({ clock });
    key = await api.newKey();
  });
  after(() => api.close());

  const remember = (body: Record<string, unknown>, owner = key) =>
    api.request('POST', '/v1/memories', { key: owner, body });
  const search = (body: Record<string, unknown>, owner = key) =>
    api.request('POST', '/v1/memories/search', { key: owner, body });
  const list = (query: string, owner = key) => api.request('GET', `/v1/memories?${query}`, { key: owner });
  const badField = (res: { status: number; body: any }, field: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'BAD_REQUEST');
    const named = JSON.stringify(res.body.error.details);
    assert.ok(
      named.includes(`"${field}"`) || named.includes(`/${field}`),
      `names ${field}: ${JSON.stringify(res.body)}`,
    );
  };
  const ids = (res: { body: any }) => res.body.data.map((m: { id: string }) => m.id);

  /** A session of five turns a minute apart, written out of order, and two turns of another. */
  async function conversation(owner: TestKey, session: string, topic: string): Promise<string[]> {
    const made: string[] = [];
    for (const minute of [0, 1, 2, 3, 4]) {
      const res = await remember(
        {
          content: `turn ${minute} about ${topic}`,
          speaker: minute % 2 === 0 ? 'Caroline' : 'Melanie',
          session_id: session,
          occurred_at: `2023-05-08T10:0${minute}:00+02:00`,
        },
        owner,
      );
      assert.equal(res.status, 201, JSON.stringify(res.body));
      made.push(res.body.data.id);
    }
    return made;
  }

  it('create: occurred_at in UTC with milliseconds, created_at when not given; session_id null when unset', async () => {
    clock.set(Date.parse('2026-02-01T00:00:00.000Z'));
    const given = await remember({
      content: 'Dinner at Mario',
      occurred_at: '2023-05-08T13:56:00+05:30',
      session_id: 's1',
    });
    assert.equal(given.status, 201, JSON.stringify(given.body));
    assert.equal(given.body.data.occurred_at, '2023-05-08T08:26:00.000Z');
    assert.equal(given.body.data.session_id, 's1');
    const plain = await remember({ content: 'No time given' });
    assert.equal(plain.body.data.occurred_at, plain.body.data.created_at);
    assert.equal(plain.body.data.session_id, null);
    const read = await api.request('GET', `/v1/memories/${given.body.data.id}`, { key });
    assert.deepEqual(read.body.data, given.body.data);
  });

  it('update: sets and clears them; the read-only rules still hold', async () => {
    const made = (await remember({ content: 'Moved later' })).body.data;
    const moved = await api.request('PUT', `/v1/memories/${made.id}`, {
      key,
      body: { occurred_at: '2022-01-01T00:00:00Z', session_id: 'trip' },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.data.occurred_at, '2022-01-01T00:00:00.000Z');
    assert.equal(moved.body.data.session_id, 'trip');
    const cleared = await api.request('PUT', `/v1/memories/${made.id}`, { key, body: { session_id: null } });
    assert.equal(cleared.body.data.session_id, null);
    assert.equal(cleared.body.data.occurred_at, '2022-01-01T00:00:00.000Z', 'unchanged when not sent');
    const roundTrip = await api.request('PUT', `/v1/memories/${made.id}`, { key, body: { ...cleared.body.data } });
    assert.equal(roundTrip.status, 200, JSON.stringify(roundTrip.body));
  });

  it('bad values are 400s naming the field, and nothing is written', async () => {
    const before = (await list('limit=1')).body.count;
    // Years outside 0001–9999 in UTC: PostgreSQL has no year 0, and SQLite would compare
    // year 10000's "+010000-…" as text (before, a 500 on PostgreSQL and a wrong filter on SQLite).
    const outOfRange = ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-14:00', '0001-01-01T00:30:00+01:00'];
    for (const occurred_at of ['2023-05-08T10:00:00', '2023-02-30T10:00:00Z', 'yesterday', '', 5, ...outOfRange]) {
      badField(await remember({ content: 'x', occurred_at }), 'occurred_at');
    }
    for (const session_id of ['', 'x'.repeat(201), 7])
      badField(await remember({ content: 'x', session_id }), 'session_id');
    assert.equal((await list('limit=1')).body.count, before);
    const made = (await remember({ content: 'kept' })).body.data;
    badField(
      await api.request('PUT', `/v1/memories/${made.id}`, { key, body: { occurred_at: 'soon' } }),
      'occurred_at',
    );
    badField(
      await api.request('PUT', `/v1/memories/${made.id}`, { key, body: { occurred_at: outOfRange[0] } }),
      'occurred_at',
    );
    badField(await list('since=0000-01-01'), 'since');
    badField(await list(`until=${encodeURIComponent(outOfRange[1] as string)}`), 'until');
    badField(await search({ query: 'kept', since: '0000-06-01' }), 'since');
    badField(await list('since=2023-02-30'), 'since');
    badField(await list('since=2023-05-08T10:00'), 'since');
    badField(await list('until=never'), 'until');
    badField(await list('session_id='), 'session_id');
    badField(await search({ query: 'kept', since: '2023-13-01T00:00:00Z' }), 'since');
    badField(await search({ query: 'kept', until: '2023-05-08T10:00' }), 'until');
    badField(await search({ query: 'kept', context: 6 }), 'context');
    badField(await search({ query: 'kept', context: -1 }), 'context');
    badField(await search({ query: 'kept', context: 1.5 }), 'context');
    badField(await search({ query: 'kept', session_id: '' }), 'session_id');
    badField(await search({ query: 'kept', speaker: 'x'.repeat(201) }), 'speaker');
  });

  it('a bad time is listed with the other problems of the same request', async () => {
    const fieldsOf = (res: { status: number; body: any }) => {
      assert.equal(res.status, 400, JSON.stringify(res.body));
      return res.body.error.details.errors.map((e: { field: string }) => e.field).sort();
    };
    assert.deepEqual(fieldsOf(await remember({ content: '', memory_type: 'x', occurred_at: 'bad', session_id: '' })), [
      'content',
      'memory_type',
      'occurred_at',
      'session_id',
    ]);
    assert.deepEqual(fieldsOf(await search({ query: '', since: 'bad', context: 9 })), ['context', 'query', 'since']);
    assert.deepEqual(fieldsOf(await list('since=bad&until=bad2&limit=0')), ['limit', 'since', 'until']);
  });

  it('GET /v1/memories filters by session_id and by since/until on occurred_at, inclusive', async () => {
    const owner = await api.newKey();
    const turns = await conversation(owner, 'lunch', 'pottery');
    const other = await remember(
      { content: 'elsewhere', session_id: 'other', occurred_at: '2023-05-08T08:02:00Z' },
      owner,
    );
    const inSession = await list('session_id=lunch&limit=100', owner);
    assert.equal(inSession.body.count, 5);
    assert.deepEqual(new Set(ids(inSession)), new Set(turns));
    // 10:01+02:00 is 08:01Z: both ends count.
    const window = await list(
      `since=${encodeURIComponent('2023-05-08T08:01:00Z')}&until=2023-05-08T10:03:00%2B02:00`,
      owner,
    );
    assert.deepEqual(new Set(ids(window)), new Set([turns[1], turns[2], turns[3], other.body.data.id]));
    const both = await list('session_id=lunch&since=2023-05-08T08:02:00.000Z&until=2023-05-08T08:02:00.000Z', owner);
    assert.deepEqual(ids(both), [turns[2]]);
    assert.equal((await list('session_id=lunch&since=2023-05-09T00:00:00Z', owner)).body.count, 0);
    // A date alone is its whole day in UTC, at either end.
    const day = await list('since=2023-05-08&until=2023-05-08&limit=100', owner);
    assert.deepEqual(new Set(ids(day)), new Set([...turns, other.body.data.id]));
    assert.equal((await list('until=2023-05-07', owner)).body.count, 0);
    assert.equal((await list('since=2023-05-09', owner)).body.count, 0);
  });

  it('search filters by speaker, session_id and since/until', async () => {
    const owner = await api.newKey();
    const turns = await conversation(owner, 'talk', 'pottery');
    await remember({ content: 'pottery in another talk', speaker: 'Caroline', session_id: 'later' }, owner);
    const bySpeaker = await search({ query: 'pottery', speaker: 'Melanie', limit: 100 }, owner);
    assert.deepEqual(new Set(ids(bySpeaker)), new Set([turns[1], turns[3]]));
    assert.equal(bySpeaker.body.count, 2);
    const bySession = await search({ query: 'pottery', session_id: 'talk', limit: 100 }, owner);
    assert.equal(bySession.body.count, 5);
    const byTime = await search(
      { query: 'pottery', since: '2023-05-08T08:03:00Z', until: '2023-05-08T08:04:00Z', speaker: 'Caroline' },
      owner,
    );
    assert.deepEqual(ids(byTime), [turns[4]]);
  });

  it('context: the n memories before and after in the session, oldest first; shorter at its ends; empty without a session', async () => {
    const owner = await api.newKey();
    const turns = await conversation(owner, 'ends', 'glazing');
    await conversation(owner, 'ends-too', 'kilns');
    const lone = await remember({ content: 'glazing alone, in no session' }, owner);
    const found = await search({ query: 'glazing', context: 2, limit: 100 }, owner);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const contextOf = (id: string) =>
      found.body.data.find((m: { id: string }) => m.id === id).context.map((m: { id: string }) => m.id);
    assert.deepEqual(contextOf(turns[0] as string), [turns[1], turns[2]], 'the first turn has nothing before it');
    assert.deepEqual(contextOf(turns[2] as string), [turns[0], turns[1], turns[3], turns[4]]);
    assert.deepEqual(contextOf(turns[4] as string), [turns[2], turns[3]], 'the last has nothing after it');
    assert.deepEqual(contextOf(lone.body.data.id), []);
    const first = found.body.data.find((m: { id: string }) => m.id === turns[1]).context[0];
    assert.equal(first.session_id, 'ends');
    assert.equal(first.score, undefined, 'context memories are plain memories');
    const without = await search({ query: 'glazing' }, owner);
    assert.equal(without.body.data[0].context, undefined, 'no context unless asked for');
    const zero = await search({ query: 'glazing', context: 0 }, owner);
    assert.equal(zero.body.data[0].context, undefined);
  });

  it('context and filters stay inside the brain and the account', async () => {
    const mine = await api.newKey();
    const theirs = await api.newKey();
    const shared = 'same-session-name';
    const a = await remember(
      { content: 'weaving class', session_id: shared, occurred_at: '2023-01-01T10:00:00Z' },
      mine,
    );
    await remember({ content: 'weaving notes', session_id: shared, occurred_at: '2023-01-01T10:01:00Z' }, theirs);
    const found = await search({ query: 'weaving', context: 5 }, mine);
    assert.deepEqual(ids(found), [a.body.data.id]);
    assert.deepEqual(found.body.data[0].context, []);
    const listed = await list(`session_id=${shared}`, mine);
    assert.deepEqual(ids(listed), [a.body.data.id]);
  });

  it('export and import carry occurred_at and session_id', async () => {
    const owner = await api.newKey();
    const kept = await remember(
      { content: 'carried over', session_id: 'moving', occurred_at: '2021-06-01T09:00:00-04:00' },
      owner,
    );
    const file = await exportText(api, owner, owner.brainId);
    const line = parseLines(file).find((l) => l.kind === 'memory');
    assert.equal(line?.data?.occurred_at, '2021-06-01T13:00:00.000Z');
    assert.equal(line?.data?.session_id, 'moving');
    const target = await startTestApi({ backgroundWork: false });
    try {
      await importFile(target.app.domain, importSource(writeFile(target.dir, 'm.jsonl', file), '{'), {});
      const { key: targetKey } = await issueApiKey(target.app.domain, { plan: 'pro', brainId: owner.brainId });
      const read = await target.request('GET', `/v1/memories/${kept.body.data.id}`, { key: targetKey as never });
      assert.deepEqual(read.body.data, kept.body.data);
      // A file from before design §12 has neither field: occurred_at becomes created_at.
      const older = file
        .replace(/,"occurred_at":"[^"]*"/, '')
        .replace(/,"session_id":"moving"/, '')
        .replaceAll(owner.brainId, `${owner.brainId.slice(0, -4)}zzzz`)
        .replaceAll(kept.body.data.id, `${kept.body.data.id.slice(0, -4)}zzzz`);
      await importFile(target.app.domain, importSource(writeFile(target.dir, 'old.jsonl', older), '{'), {});
      const { key: oldKey } = await issueApiKey(target.app.domain, {
        plan: 'pro',
        brainId: `${owner.brainId.slice(0, -4)}zzzz`,
      });
      const old = await target.request('GET', `/v1/memories/${kept.body.data.id.slice(0, -4)}zzzz`, {
        key: oldKey as never,
      });
      assert.equal(old.status, 200, JSON.stringify(old.body));
      assert.equal(old.body.data.occurred_at, kept.body.data.created_at);
      assert.equal(old.body.data.session_id, null);
    } finally {
      await target.close();
    }
  });
});
