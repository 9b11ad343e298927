// Another account's objects answer exactly like missing ones: 404 NOT_FOUND with the same body,
// never 403, and nothing the other account sends changes them (design §6.2, §4.1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { snapshotBody, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  PREFIXES,
  assertErrorBody,
  call,
  makeFixture,
  missingId,
  readFixture,
  roomyKey,
  FIXTURE_TEXT,
  type Fixture,
} from './support.js';

interface Target {
  name: string;
  method: string;
  /** Built from A's fixture (another account's objects) or from ids that name nothing. */
  request: (ids: Fixture, own: { snapshotId: string; brainId: string }) => { path: string; body?: unknown };
}

const targetsUnder = (p: string): Target[] => [
  { name: `GET ${p}/snapshots/:id`, method: 'GET', request: (ids) => ({ path: `${p}/snapshots/${ids.snapshotId}` }) },
  {
    name: `PUT ${p}/snapshots/:id`,
    method: 'PUT',
    request: (ids) => ({ path: `${p}/snapshots/${ids.snapshotId}`, body: { name: 'Hijacked', tags: ['b'] } }),
  },
  {
    name: `DELETE ${p}/snapshots/:id`,
    method: 'DELETE',
    request: (ids) => ({ path: `${p}/snapshots/${ids.snapshotId}` }),
  },
  { name: `GET ${p}/edges/:id`, method: 'GET', request: (ids) => ({ path: `${p}/edges/${ids.edgeId}` }) },
  {
    name: `PUT ${p}/edges/:id`,
    method: 'PUT',
    request: (ids) => ({ path: `${p}/edges/${ids.edgeId}`, body: { strength: 0.01, label: 'hijacked' } }),
  },
  { name: `DELETE ${p}/edges/:id`, method: 'DELETE', request: (ids) => ({ path: `${p}/edges/${ids.edgeId}` }) },
  {
    name: `GET ${p}/brains/:id (default brain)`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/brains/${ids.brainId}` }),
  },
  {
    name: `GET ${p}/brains/:id (second brain)`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/brains/${ids.extraBrainId}` }),
  },
  {
    name: `GET ${p}/snapshots?brain_id=`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/snapshots?brain_id=${ids.brainId}` }),
  },
  {
    name: `GET ${p}/edges?brain_id=`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/edges?brain_id=${ids.brainId}` }),
  },
  {
    name: `GET ${p}/edges?snapshot_id=`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/edges?snapshot_id=${ids.snapshotId}` }),
  },
  {
    // B somehow learnt A's ids and sends them back as the unchanged read-only fields of a PUT.
    name: `PUT ${p}/snapshots/:id with its read-only fields echoed`,
    method: 'PUT',
    request: (ids) => ({
      path: `${p}/snapshots/${ids.snapshotId}`,
      body: { id: ids.snapshotId, brain_id: ids.brainId, name: 'Hijacked' },
    }),
  },
  {
    name: `PUT ${p}/edges/:id with its read-only fields echoed`,
    method: 'PUT',
    request: (ids) => ({
      path: `${p}/edges/${ids.edgeId}`,
      body: { id: ids.edgeId, source_id: ids.snapshotId, target_id: ids.otherSnapshotId, strength: 0.01 },
    }),
  },
  {
    // snapshot_id takes precedence over brain_id (design §7.2), so B's own brain does not rescue it.
    name: `GET ${p}/edges?snapshot_id=(A's)&brain_id=(B's)`,
    method: 'GET',
    request: (ids, own) => ({ path: `${p}/edges?snapshot_id=${ids.snapshotId}&brain_id=${own.brainId}` }),
  },
  {
    name: `PUT ${p}/brains/:id`,
    method: 'PUT',
    request: (ids) => ({ path: `${p}/brains/${ids.extraBrainId}`, body: { auto_link: true, name: 'Hijacked' } }),
  },
  {
    name: `GET ${p}/snapshots/search?brain_id=`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/snapshots/search?q=anything&brain_id=${ids.brainId}` }),
  },
  {
    name: `GET ${p}/snapshots/:id/suggestions`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/snapshots/${ids.snapshotId}/suggestions` }),
  },
  {
    name: `POST ${p}/snapshots with brain_id`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/snapshots`, body: snapshotBody({ brain_id: ids.extraBrainId }) }),
  },
  {
    name: `POST ${p}/edges with the other account's snapshot as source`,
    method: 'POST',
    request: (ids, own) => ({
      path: `${p}/edges`,
      body: { source_id: ids.snapshotId, target_id: own.snapshotId, edge_type: 'supports' },
    }),
  },
  {
    name: `POST ${p}/edges with the other account's snapshot as target`,
    method: 'POST',
    request: (ids, own) => ({
      path: `${p}/edges`,
      body: { source_id: own.snapshotId, target_id: ids.snapshotId, edge_type: 'supports' },
    }),
  },
  {
    name: `POST ${p}/edges with both snapshots the other account's`,
    method: 'POST',
    request: (ids) => ({
      path: `${p}/edges`,
      body: { source_id: ids.snapshotId, target_id: ids.otherSnapshotId, edge_type: 'contradicts' },
    }),
  },
  {
    name: `GET ${p}/crystallize/:run_id`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/crystallize/${ids.runId}` }),
  },
  {
    name: `GET ${p}/captures?brain_id=`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/captures?brain_id=${ids.brainId}` }),
  },
  {
    name: `POST ${p}/captures/:id/accept`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/captures/${ids.captureId}/accept` }),
  },
  {
    name: `POST ${p}/captures/:id/reject`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/captures/${ids.captureId}/reject` }),
  },
  {
    name: `POST ${p}/crystallize with brain_id`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/crystallize`, body: { text: FIXTURE_TEXT, brain_id: ids.extraBrainId } }),
  },
  {
    name: `POST ${p}/specific-knowledge/ingest with brain_id`,
    method: 'POST',
    request: (ids) => ({
      path: `${p}/specific-knowledge/ingest`,
      body: { source_type: 'manual', title: 'T', content: FIXTURE_TEXT, brain_id: ids.extraBrainId },
    }),
  },
  {
    name: `POST ${p}/specific-knowledge/search with brain_id`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/specific-knowledge/search`, body: { query: 'test', brain_id: ids.brainId } }),
  },
  {
    name: `GET ${p}/specific-knowledge/sources?brain_id=`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/specific-knowledge/sources?brain_id=${ids.brainId}` }),
  },
  {
    name: `GET ${p}/specific-knowledge/sources/:id`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/specific-knowledge/sources/${ids.sourceId}` }),
  },
  {
    name: `DELETE ${p}/specific-knowledge/sources/:id`,
    method: 'DELETE',
    request: (ids) => ({ path: `${p}/specific-knowledge/sources/${ids.sourceId}` }),
  },
  {
    name: `GET ${p}/specific-knowledge/entries/:id`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/specific-knowledge/entries/${ids.entryId}` }),
  },
  {
    name: `PUT ${p}/specific-knowledge/entries/:id`,
    method: 'PUT',
    request: (ids) => ({ path: `${p}/specific-knowledge/entries/${ids.entryId}`, body: { mastery: 1 } }),
  },
  { name: `GET ${p}/memories/:id`, method: 'GET', request: (ids) => ({ path: `${p}/memories/${ids.memoryId}` }) },
  {
    name: `PUT ${p}/memories/:id`,
    method: 'PUT',
    request: (ids) => ({ path: `${p}/memories/${ids.memoryId}`, body: { content: 'Hijacked', tags: ['b'] } }),
  },
  {
    name: `PUT ${p}/memories/:id with its read-only fields echoed`,
    method: 'PUT',
    request: (ids) => ({
      path: `${p}/memories/${ids.memoryId}`,
      body: { id: ids.memoryId, brain_id: ids.brainId, content: 'Hijacked' },
    }),
  },
  {
    name: `DELETE ${p}/memories/:id`,
    method: 'DELETE',
    request: (ids) => ({ path: `${p}/memories/${ids.memoryId}` }),
  },
  {
    name: `POST ${p}/memories/:id/crystallize`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/memories/${ids.memoryId}/crystallize`, body: {} }),
  },
  {
    name: `GET ${p}/memories?brain_id=`,
    method: 'GET',
    request: (ids) => ({ path: `${p}/memories?brain_id=${ids.brainId}` }),
  },
  {
    name: `POST ${p}/memories with brain_id`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/memories`, body: { content: 'Planted', brain_id: ids.extraBrainId } }),
  },
  {
    name: `POST ${p}/memories/remember with brain_id`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/memories/remember`, body: { content: 'Planted', brain_id: ids.extraBrainId } }),
  },
  {
    name: `POST ${p}/memories/search with brain_id`,
    method: 'POST',
    request: (ids) => ({ path: `${p}/memories/search`, body: { query: 'deploys', brain_id: ids.brainId } }),
  },
  {
    name: `POST ${p}/ingest with brain_id`,
    method: 'POST',
    request: (ids) => ({
      path: `${p}/ingest`,
      body: { content: 'Planted text long enough to be ingested here.', brain_id: ids.extraBrainId },
    }),
  },
];

const TARGETS = PREFIXES.flatMap(targetsUnder);

describe("tenancy matrix: account A's objects do not exist for account B", () => {
  let api: TestApi;
  let keyA: TestKey;
  let keyB: TestKey;
  let fixtureA: Fixture;
  let fixtureB: Fixture;
  let missing: Fixture;
  let stateA: Record<string, unknown>;
  let stateB: Record<string, unknown>;

  before(async () => {
    api = await startTestApi();
    keyA = await roomyKey(api);
    keyB = await roomyKey(api);
    fixtureA = await makeFixture(api, keyA);
    fixtureB = await makeFixture(api, keyB);
    missing = {
      brainId: missingId('brain'),
      extraBrainId: missingId('brain'),
      snapshotId: missingId('snap'),
      otherSnapshotId: missingId('snap'),
      edgeId: missingId('edge'),
      memoryId: missingId('mem'),
      runId: missingId('cry'),
      captureId: missingId('cap'),
      sourceId: missingId('src'),
      entryId: missingId('ske'),
    };
    stateA = await readFixture(api, keyA, fixtureA);
    stateB = await readFixture(api, keyB, fixtureB);
  });
  after(() => api.close());

  it('control: the fixture ids are real, and A itself can read them', async () => {
    for (const path of [
      `/v1/snapshots/${fixtureA.snapshotId}`,
      `/v1/edges/${fixtureA.edgeId}`,
      `/v1/brains/${fixtureA.extraBrainId}`,
      `/v1/memories/${fixtureA.memoryId}`,
    ]) {
      assert.equal((await call(api, 'GET', path, { key: keyA })).status, 200, path);
    }
  });

  for (const target of TARGETS) {
    it(`${target.name}: A's object -> 404 NOT_FOUND, the same as a missing id`, async () => {
      const own = { snapshotId: fixtureB.snapshotId, brainId: fixtureB.brainId };
      const foreign = target.request(fixtureA, own);
      const absent = target.request(missing, own);
      const foreignResponse = await call(api, target.method, foreign.path, { key: keyB, body: foreign.body });
      const absentResponse = await call(api, target.method, absent.path, { key: keyB, body: absent.body });
      assertErrorBody(foreignResponse, 404, 'NOT_FOUND', `${target.name} on A's object`);
      assertErrorBody(absentResponse, 404, 'NOT_FOUND', `${target.name} on a missing id`);
      assert.equal(foreignResponse.status, absentResponse.status);
      assert.deepEqual(
        foreignResponse.body.error,
        absentResponse.body.error,
        "another account's object and a missing one answer with the same error",
      );
      assert.deepEqual(
        Object.keys(foreignResponse.headers).sort(),
        Object.keys(absentResponse.headers).sort(),
        'and the same set of headers',
      );
    });
  }

  it("afterwards A's snapshots, edge and brains are unchanged", async () => {
    assert.deepEqual(await readFixture(api, keyA, fixtureA), stateA);
  });

  it("and B's own brain gained nothing from the refused creates", async () => {
    assert.deepEqual(await readFixture(api, keyB, fixtureB), stateB);
  });

  it("with snapshot_id (B's) and brain_id (A's), B gets only its own snapshot's edges", async () => {
    const response = await call(
      api,
      'GET',
      `/v1/edges?snapshot_id=${fixtureB.snapshotId}&brain_id=${fixtureA.brainId}`,
      { key: keyB },
    );
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(
      response.body.data.map((e: { id: string }) => e.id),
      [fixtureB.edgeId],
    );
    assert.equal(response.body.total, 1);
  });

  it("B's lists never include A's objects", async () => {
    const brains = await call(api, 'GET', '/v1/brains', { key: keyB });
    const snapshots = await call(api, 'GET', '/v1/snapshots', { key: keyB });
    const edges = await call(api, 'GET', `/v1/edges?brain_id=${fixtureB.brainId}`, { key: keyB });
    const memories = await call(api, 'GET', '/v1/memories', { key: keyB });
    const found = await call(api, 'POST', '/v1/memories/search', { key: keyB, body: { query: 'deploys' } });
    for (const response of [brains, snapshots, edges, memories, found]) assert.equal(response.status, 200);
    const seen = JSON.stringify([brains.body, snapshots.body, edges.body, memories.body, found.body]);
    for (const id of Object.values(fixtureA)) assert.ok(!seen.includes(id), `B sees ${id}`);
  });
});
