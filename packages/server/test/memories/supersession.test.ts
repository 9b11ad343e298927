// Facts that change (design §6.1): the service marks a memory superseded when a newer one restates
// its fact with another value, by occurred_at; PUT corrects it; history, current_only and as_of read
// it; search puts the current value first; export and import carry it. Through HTTP on the
// configured store.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import { waitForJob } from '../jobs/support.js';
import { exportText, parseLines } from '../transfer/support.js';

describe('memories: the current value first (design §6.1)', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  /** A brain of its own for each test, so that one test's facts never meet another's. */
  const freshKey = () => api.newKey();
  const remember = async (owner: TestKey, content: string, occurred_at: string, extra: object = {}) => {
    const res = await api.request('POST', '/v1/memories', { key: owner, body: { content, occurred_at, ...extra } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { id: string; superseded_by: string | null; superseded_at: string | null };
  };
  const read = async (owner: TestKey, id: string) =>
    (await api.request('GET', `/v1/memories/${id}`, { key: owner })).body.data;
  const search = async (owner: TestKey, body: object) => {
    const res = await api.request('POST', '/v1/memories/search', { key: owner, body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as {
      data: { id: string; content: string; superseded_by: string | null; score: number }[];
      count: number;
    };
  };

  describe('the rules, offline', () => {
    const cases: [string, string, string][] = [
      ['a changed number', 'The platform team has 12 engineers.', 'The platform team has 15 engineers.'],
      ['a changed date', 'The design review is on March 3.', 'The design review is on March 10.'],
      ['a changed name', 'The premium tier is called Gold.', 'The premium tier is called Platinum.'],
      ['a changed place', 'The offsite will be held in Lisbon.', 'The offsite will be held in Porto.'],
      ['a correction without a value', 'Tom eats meat.', 'Tom no longer eats meat.'],
      ['"actually"', 'The standup starts at 9am.', 'Actually, the standup starts at 10am.'],
    ];
    for (const [kind, before, after] of cases) {
      it(`${kind}: the newer memory supersedes the older, both fields set`, async () => {
        key = await freshKey();
        const old = await remember(key, before, '2025-01-01T10:00:00Z');
        const replacement = await remember(key, after, '2025-01-02T10:00:00Z');
        assert.equal(replacement.superseded_by, null, 'the newer stays current');
        const stored = await read(key, old.id);
        assert.equal(stored.superseded_by, replacement.id, kind);
        assert.equal(stored.superseded_at, '2025-01-02T10:00:00.000Z');
      });
    }

    it('different subjects, or a value merely repeated, supersede nothing', async () => {
      key = await freshKey();
      const pairs = [
        ['Tom lives in Paris.', 'Anna lives in Paris.'],
        ['I went to the gym on May 5.', 'I went to Paris on May 3.'],
        ['The budget is $5,000.', 'The budget is $5,000.'],
        ['The design review is on Friday.', 'The design review went well, thanks everyone.'],
      ];
      let day = 1;
      for (const [first, second] of pairs) {
        const a = await remember(key, first as string, `2025-02-0${day++}T10:00:00Z`);
        await remember(key, second as string, `2025-02-0${day++}T10:00:00Z`);
        assert.equal((await read(key, a.id)).superseded_by, null, `${first} / ${second}`);
      }
    });

    it('two people each speaking of themselves are two subjects', async () => {
      key = await freshKey();
      const alice = await remember(key, 'I live in Lyon.', '2025-03-01T10:00:00Z', { speaker: 'Alice' });
      await remember(key, 'I live in Nantes.', '2025-03-02T10:00:00Z', { speaker: 'Bob' });
      assert.equal((await read(key, alice.id)).superseded_by, null);
      const later = await remember(key, 'I live in Dijon.', '2025-03-03T10:00:00Z', { speaker: 'Alice' });
      assert.equal((await read(key, alice.id)).superseded_by, later.id);
    });
  });

  it('out of order: occurred_at decides; a memory arriving older than its match is the superseded one', async () => {
    key = await freshKey();
    const third = await remember(key, 'The launch date is June 30.', '2025-06-03T00:00:00Z');
    const first = await remember(key, 'The launch date is June 10.', '2025-06-01T00:00:00Z');
    assert.equal(first.superseded_by, third.id, 'arrived older: superseded on arrival');
    const second = await remember(key, 'The launch date is June 20.', '2025-06-02T00:00:00Z');
    assert.equal(second.superseded_by, third.id);
    assert.equal((await read(key, first.id)).superseded_by, second.id, 'the chain runs by occurred_at');
    assert.equal((await read(key, third.id)).superseded_by, null, 'the latest stays current');
    const history = await api.request('GET', `/v1/memories/${second.id}/history`, { key });
    assert.equal(history.status, 200);
    assert.deepEqual(
      history.body.data.map((m: { id: string }) => m.id),
      [first.id, second.id, third.id],
      'oldest first',
    );
  });

  describe('PUT superseded_by', () => {
    it('sets, clears and refuses self, loops (400) and other brains or unknown ids (404)', async () => {
      key = await freshKey();
      const a = await remember(key, 'Lunch is at noon.', '2025-04-01T00:00:00Z');
      const b = await remember(key, 'The printer is on floor two.', '2025-04-02T00:00:00Z');
      const put = (id: string, body: object, owner = key) =>
        api.request('PUT', `/v1/memories/${id}`, { key: owner, body });
      const set = await put(a.id, { superseded_by: b.id });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.equal(set.body.data.superseded_by, b.id);
      assert.equal(set.body.data.superseded_at, '2025-04-02T00:00:00.000Z');

      for (const [body, why] of [
        [{ superseded_by: a.id }, 'self'],
        [{ superseded_by: a.id }, 'loop'],
      ] as const) {
        const target = why === 'self' ? a.id : b.id;
        const res = await put(target, body);
        assert.equal(res.status, 400, `${why}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'BAD_REQUEST');
        assert.ok(JSON.stringify(res.body.error).includes('superseded_by'), JSON.stringify(res.body));
      }
      const other = await freshKey();
      const foreign = await remember(other, 'Lunch is at one.', '2025-04-03T00:00:00Z');
      for (const id of [foreign.id, 'mem_01JDQ8Z2X4M3N5P7Q9R1S3T5V7']) {
        const res = await put(a.id, { superseded_by: id });
        assert.equal(res.status, 404, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'NOT_FOUND');
      }
      assert.equal((await put(b.id, { superseded_by: a.id }, other)).status, 404, "another account's memory");
      assert.equal((await read(key, a.id)).superseded_by, b.id, 'refusals changed nothing');

      const cleared = await put(a.id, { superseded_by: null });
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.data.superseded_by, null);
      assert.equal(cleared.body.data.superseded_at, null);
      const readOnly = await put(a.id, { superseded_at: '2030-01-01T00:00:00Z' });
      assert.equal(readOnly.status, 400);
    });

    it('history is 404 for another account and for an unknown id', async () => {
      key = await freshKey();
      const a = await remember(key, 'The office is in Leeds.', '2025-05-01T00:00:00Z');
      const other = await freshKey();
      assert.equal((await api.request('GET', `/v1/memories/${a.id}/history`, { key: other })).status, 404);
      const unknown = await api.request('GET', '/v1/memories/mem_01JDQ8Z2X4M3N5P7Q9R1S3T5V7/history', { key });
      assert.equal(unknown.status, 404);
      const alone = await api.request('GET', `/v1/memories/${a.id}/history`, { key });
      assert.deepEqual(
        alone.body.data.map((m: { id: string }) => m.id),
        [a.id],
      );
    });
  });

  it('current_only and as_of on list and search', async () => {
    key = await freshKey();
    const old = await remember(key, 'The release train leaves every 14 days.', '2025-07-01T00:00:00Z');
    const now = await remember(key, 'The release train leaves every 7 days.', '2025-07-10T00:00:00Z');
    const unrelated = await remember(key, 'The wiki lives on Confluence.', '2025-07-05T00:00:00Z');
    const list = async (query: string) => {
      const res = await api.request('GET', `/v1/memories${query}`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
    assert.deepEqual(ids((await list('')).data), ids([old, now, unrelated]));
    const current = await list('?current_only=true');
    assert.deepEqual(ids(current.data), ids([now, unrelated]));
    assert.equal(current.count, 2);

    const then = await list('?as_of=2025-07-06T00:00:00Z');
    assert.deepEqual(ids(then.data), ids([old, unrelated]), 'what occurred later is left out');
    const oldThen = then.data.find((m: { id: string }) => m.id === old.id);
    assert.equal(oldThen.superseded_by, null, 'not yet replaced then');
    assert.deepEqual(ids((await list('?as_of=2025-07-06&current_only=true')).data), ids([old, unrelated]));
    const bad = await api.request('GET', '/v1/memories?as_of=yesterday', { key });
    assert.equal(bad.status, 400);
    assert.ok(JSON.stringify(bad.body).includes('as_of'));

    const q = { query: 'how often does the release train leave' };
    assert.deepEqual(
      (await search(key, { ...q, current_only: true })).data.map((m) => m.id),
      [now.id],
    );
    const asOf = await search(key, { ...q, as_of: '2025-07-06T00:00:00Z' });
    assert.deepEqual(
      asOf.data.map((m) => [m.id, m.superseded_by]),
      [[old.id, null]],
    );
    const all = await search(key, q);
    assert.deepEqual(
      all.data.map((m) => [m.id, m.superseded_by]),
      [
        [now.id, null],
        [old.id, now.id],
      ],
    );
  });

  it('search: the replacement ranks above what it replaced and is brought in with fewer query words', async () => {
    key = await freshKey();
    const old = await remember(
      key,
      'The customer onboarding workshop for the Berlin office is on September 4.',
      '2025-08-01T00:00:00Z',
    );
    const moved = await remember(
      key,
      'Actually, the onboarding workshop moved to September 11.',
      '2025-08-02T00:00:00Z',
    );
    assert.equal((await read(key, old.id)).superseded_by, moved.id);
    const found = await search(key, { query: 'customer workshop Berlin office', limit: 1 });
    assert.deepEqual(
      found.data.map((m) => m.id),
      [moved.id],
      'the current version first, though it has fewer of the words',
    );
    const both = await search(key, { query: 'customer workshop Berlin office' });
    assert.deepEqual(
      both.data.map((m) => m.id),
      [moved.id, old.id],
    );
    assert.ok((both.data[0] as { score: number }).score >= (both.data[1] as { score: number }).score);
  });

  it('a memory deleted from a chain passes its place on', async () => {
    key = await freshKey();
    const a = await remember(key, 'The on-call phone number ends in 4411.', '2025-09-01T00:00:00Z');
    const b = await remember(key, 'The on-call phone number ends in 5522.', '2025-09-02T00:00:00Z');
    const c = await remember(key, 'The on-call phone number ends in 6633.', '2025-09-03T00:00:00Z');
    assert.equal((await read(key, b.id)).superseded_by, c.id);
    assert.equal((await api.request('DELETE', `/v1/memories/${b.id}`, { key })).status, 200);
    const stored = await read(key, a.id);
    assert.equal(stored.superseded_by, c.id);
    assert.equal(stored.superseded_at, '2025-09-03T00:00:00.000Z');
  });

  it('export and import carry both fields; a superseded_by outside the file is a bad line', async () => {
    key = await freshKey();
    const a = await remember(key, 'The quarterly target is 40 deals.', '2025-10-01T00:00:00Z');
    const b = await remember(key, 'The quarterly target is 55 deals.', '2025-10-02T00:00:00Z');
    const file = await exportText(api, key, key.brainId);
    const records = parseLines(file).filter((l: { kind?: string }) => l.kind === 'memory');
    const exportedA = records.find((r) => r.data?.id === a.id) as { data: Record<string, unknown> };
    assert.equal(exportedA.data.superseded_by, b.id);
    assert.equal(exportedA.data.superseded_at, '2025-10-02T00:00:00.000Z');

    const dir = mkdtempSync(join(tmpdir(), 'snapgraph-supersession-'));
    const target = await startTestApi({ imports: { maxBytes: 1024 * 1024, dir } });
    try {
      const owner = await target.newKey();
      const headers = { 'content-type': 'application/x-ndjson' };
      const accepted = await target.request('POST', '/v1/brains/import', { key: owner, rawBody: file, headers });
      assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
      const job = await waitForJob(target.request, owner, accepted.body.data.job_id);
      assert.equal(job.status, 'succeeded', JSON.stringify(job));
      const brainId = job.result.brain_id as string;
      const listed = await target.request('GET', `/v1/memories?brain_id=${brainId}`, { key: owner });
      const importedA = listed.body.data.find((m: { content: string }) => m.content.includes('40'));
      const importedB = listed.body.data.find((m: { content: string }) => m.content.includes('55'));
      assert.equal(importedA.superseded_by, importedB.id);
      assert.equal(importedA.superseded_at, '2025-10-02T00:00:00.000Z');
      assert.equal(importedB.superseded_by, null);

      const dangling = file.replace(`"superseded_by":"${b.id}"`, '"superseded_by":"mem_01JDQ8Z2X4M3N5P7Q9R1S3T5V7"');
      assert.notEqual(dangling, file);
      const refused = await target.request('POST', '/v1/brains/import', { key: owner, rawBody: dangling, headers });
      const failed =
        refused.status === 202 ? await waitForJob(target.request, owner, refused.body.data.job_id) : refused.body;
      assert.ok(
        JSON.stringify(failed).includes('superseded_by mem_01JDQ8Z2X4M3N5P7Q9R1S3T5V7 is not a memory of this file'),
        JSON.stringify(failed),
      );
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
