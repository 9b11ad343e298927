// The totals of lists stay exact through every kind of write: create, type change, delete, and
// the cascade that deletes a snapshot's edges.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { snapshotBody, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

describe('list totals through creates, updates and deletes', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const count = async (query: string) => (await api.request('GET', `/v1/snapshots?${query}`, { key })).body.count;
  const total = async (query: string) =>
    (await api.request('GET', `/v1/edges?brain_id=${key.brainId}&${query}`, { key })).body.total;
  const brain = async () => (await api.request('GET', `/v1/brains/${key.brainId}`, { key })).body.data;

  it('counts follow every write', async () => {
    const make = async (type: string) =>
      (await api.request('POST', '/v1/snapshots', { key, body: snapshotBody({ type }) })).body.data.id as string;
    const [a, b, c] = [await make('Rule'), await make('Rule'), await make('Model')];
    const edge = (source: string, target: string, edge_type: string, strength = 0.5) =>
      api.request('POST', '/v1/edges', { key, body: { source_id: source, target_id: target, edge_type, strength } });
    await edge(a, b, 'supports', 0.9);
    await edge(b, c, 'contradicts', 0.2);
    await edge(c, a, 'supports', 0.6);

    assert.deepEqual([await count(''), await count('type=Rule'), await count('type=Model')], [3, 2, 1]);
    assert.deepEqual([await total(''), await total('edge_type=supports'), await total('min_strength=0.5')], [3, 2, 2]);

    // A type change moves a snapshot between the per-type totals.
    await api.request('PUT', `/v1/snapshots/${b}`, { key, body: { type: 'Model' } });
    assert.deepEqual([await count(''), await count('type=Rule'), await count('type=Model')], [3, 1, 2]);
    await api.request(
      'PUT',
      `/v1/edges/${(await api.request('GET', `/v1/edges?snapshot_id=${b}&edge_type=contradicts`, { key })).body.data[0].id}`,
      {
        key,
        body: { edge_type: 'supports' },
      },
    );
    assert.deepEqual([await total('edge_type=supports'), await total('edge_type=contradicts')], [3, 0]);

    // Deleting a snapshot takes its edges, and both totals, with it.
    await api.request('DELETE', `/v1/snapshots/${a}`, { key });
    assert.deepEqual([await count(''), await count('type=Rule'), await count('type=Model')], [2, 0, 2]);
    assert.deepEqual([await total(''), await total('edge_type=supports')], [1, 1]);
    assert.deepEqual(
      { snapshots: (await brain()).snapshot_count, edges: (await brain()).edge_count },
      { snapshots: 2, edges: 1 },
    );
  });
});
