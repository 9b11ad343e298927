import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SnapgraphClient, SnapgraphError } from '../src/index.js';
import { startLiveServer, type LiveServer } from './live-server.js';

/** Every endpoint of the service through the client, against the real server over HTTP. */
describe('client: every endpoint', () => {
  let server: LiveServer;
  let sg: SnapgraphClient;
  let brainId: string;
  before(async () => {
    server = await startLiveServer();
    const key = await server.newKey();
    brainId = key.brainId;
    sg = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: key.key });
  });
  after(() => server.close());

  it('health and readiness', async () => {
    assert.deepEqual(await sg.health(), { status: 'ok' });
    const ready = await sg.ready();
    assert.equal(ready.status, 'ok');
    assert.equal(ready.checks.database, 'ok');
  });

  it('snapshots: create, get, update, list, delete', async () => {
    const created = await sg.snapshots.create({ name: 'Compounding', core: 'Small gains compound', tags: ['habits'] });
    assert.match(created.id, /^snap_/);
    assert.equal(created.brain_id, brainId);
    assert.equal(created.type, 'Belief');
    assert.deepEqual(created.tags, ['habits']);

    const read = await sg.snapshots.get(created.id);
    assert.deepEqual(read, created);

    const updated = await sg.snapshots.update(created.id, { confidence: 0.9, one_liner: 'Gains compound' });
    assert.equal(updated.confidence, 0.9);
    assert.equal(updated.one_liner, 'Gains compound');
    assert.ok(updated.updated_at > created.updated_at);

    // GET → change → PUT back works: read-only fields equal to the stored ones are accepted.
    const roundTrip = await sg.snapshots.update(created.id, { ...updated, name: 'Compounding gains' });
    assert.equal(roundTrip.name, 'Compounding gains');

    const page = await sg.snapshots.list({ type: 'Belief' });
    assert.equal(page.count, 1);
    assert.equal(page.data[0]?.id, created.id);

    assert.deepEqual(await sg.snapshots.delete(created.id), { success: true });
    await assert.rejects(sg.snapshots.get(created.id), (err: unknown) => {
      assert.ok(err instanceof SnapgraphError);
      assert.equal(err.status, 404);
      assert.equal(err.code, 'NOT_FOUND');
      assert.match(err.requestId ?? '', /^req_/);
      return true;
    });
  });

  it('search: ranked results with score, similarity and the echoed query', async () => {
    await sg.snapshots.create({ name: 'Sleep first', core: 'Sleep protects memory consolidation' });
    await sg.snapshots.create({ name: 'Unrelated', core: 'Taxes are due in April' });
    const page = await sg.snapshots.search({ q: '  sleep  ' });
    assert.equal(page.query, 'sleep');
    assert.equal(page.count, 1);
    assert.equal(page.data[0]?.name, 'Sleep first');
    assert.match(page.data[0]?.similarity ?? '', /^\d\.\d{4}$/);
    assert.deepEqual(page.data[0]?.contradicted_by, []);
  });

  it('edges: create, get, update, list, delete; suggestions', async () => {
    const a = await sg.snapshots.create({ name: 'Deep work', core: 'Focused work produces value', tags: ['focus'] });
    const b = await sg.snapshots.create({
      name: 'Deep focus',
      core: 'Focused work needs long blocks',
      tags: ['focus'],
    });
    const suggestions = await sg.snapshots.suggestions(a.id, { limit: 5 });
    assert.equal(suggestions.count, suggestions.data.length);
    assert.ok(
      suggestions.data.some((s) => s.source_id === b.id || s.target_id === b.id),
      JSON.stringify(suggestions),
    );

    const edge = await sg.edges.create({ source_id: a.id, target_id: b.id, edge_type: 'supports', strength: 0.8 });
    assert.match(edge.id, /^edge_/);
    assert.equal(edge.origin, 'manual');
    assert.deepEqual(await sg.edges.get(edge.id), edge);

    const changed = await sg.edges.update(edge.id, { strength: 0.3, label: 'weaker than thought' });
    assert.equal(changed.strength, 0.3);
    assert.equal(changed.label, 'weaker than thought');

    const bySnapshot = await sg.edges.list({ snapshot_id: b.id });
    assert.equal(bySnapshot.total, 1);
    const byBrain = await sg.edges.list({ brain_id: brainId, edge_type: 'supports', min_strength: 0.5 });
    assert.equal(byBrain.total, 0);

    const deleted = await sg.edges.delete(edge.id);
    assert.equal(typeof deleted.message, 'string');
    assert.equal((await sg.edges.list({ snapshot_id: b.id })).total, 0);
  });

  it('brains: create, get, update, list', async () => {
    const brain = await sg.brains.create({ name: 'Research' });
    assert.match(brain.id, /^brain_/);
    assert.equal(brain.auto_link, false);
    const inBrain = await sg.snapshots.create({
      name: 'Elsewhere',
      core: 'Lives in the research brain',
      brain_id: brain.id,
    });
    assert.equal(inBrain.brain_id, brain.id);
    const read = await sg.brains.get(brain.id);
    assert.equal(read.snapshot_count, 1);
    const renamed = await sg.brains.update(brain.id, { name: 'Research notes', auto_link: true });
    assert.equal(renamed.name, 'Research notes');
    assert.equal(renamed.auto_link, true);
    const list = await sg.brains.list();
    assert.equal(list.count, 2);
    assert.deepEqual(list.data.map((b) => b.id).sort(), [brain.id, brainId].sort());
  });

  it('brains: export streams the NDJSON file line by line, and GraphML as text', async () => {
    const brain = await sg.brains.create({ name: 'Exported' });
    const a = await sg.snapshots.create({ name: 'Alpha', core: 'First', brain_id: brain.id });
    const b = await sg.snapshots.create({ name: 'Beta', core: 'Second', brain_id: brain.id });
    const link = await sg.edges.create({ source_id: a.id, target_id: b.id, edge_type: 'supports' });

    const lines = [];
    for await (const line of sg.brains.export(brain.id)) lines.push(line);
    const [header, ...rest] = lines;
    assert.ok(header && 'format' in header, JSON.stringify(header));
    assert.equal(header.format, 'snapgraph-export');
    assert.equal(header.brain_id, brain.id);
    const end = rest.at(-1);
    assert.deepEqual(end, { kind: 'end', counts: { brain: 1, snapshot: 2, edge: 1 } });
    const records = rest.slice(0, -1) as { kind: string; data: Record<string, unknown> }[];
    assert.deepEqual(
      records.map((r) => `${r.kind} ${r.data.id}`),
      [`brain ${brain.id}`, `snapshot ${a.id}`, `snapshot ${b.id}`, `edge ${link.id}`],
    );
    assert.equal(records[1]?.data.name, 'Alpha');

    const graphml = await sg.brains.exportGraphml(brain.id);
    assert.match(graphml, /^<\?xml/);
    assert.match(graphml, new RegExp(`<node id="${a.id}"`));
    assert.match(graphml, new RegExp(`<edge id="${link.id}"`));

    // Another account's brain: the same SnapgraphError as any other call.
    const other = await server.newKey();
    const stranger = new SnapgraphClient({ baseUrl: server.baseUrl, apiKey: other.key });
    await assert.rejects(
      (async () => {
        for await (const line of stranger.brains.export(brain.id)) void line;
      })(),
      (err: unknown) => err instanceof SnapgraphError && err.status === 404 && err.code === 'NOT_FOUND',
    );
  });

  it('request(): any operation by path and method, typed from the document', async () => {
    const page = await sg.request('get', '/v1/snapshots', { query: { limit: 1 } });
    assert.equal(page.data.length, 1);
    const one = await sg.request('get', '/v1/snapshots/{id}', { params: { id: page.data[0]!.id } });
    assert.equal(one.data.id, page.data[0]!.id);
  });

  describe('errors: one class with status, code, details, requestId', () => {
    const failure = async (promise: Promise<unknown>) => {
      try {
        await promise;
      } catch (err) {
        assert.ok(err instanceof SnapgraphError, String(err));
        return err;
      }
      assert.fail('expected a SnapgraphError');
    };

    it('400 names the field', async () => {
      const err = await failure(
        sg.edges.create({ source_id: 'snap_x', target_id: 'snap_y', edge_type: 'supports', strength: 2 }),
      );
      assert.equal(err.status, 400);
      assert.equal(err.code, 'BAD_REQUEST');
      assert.equal(err.details?.field, 'strength');
      assert.match(err.requestId ?? '', /^req_/);
    });

    it('401 for a wrong key', async () => {
      const stranger = new SnapgraphClient({
        baseUrl: server.baseUrl,
        apiKey: 'sg_wrongwrongwrongwrongwrongwrongwrong',
      });
      const err = await failure(stranger.snapshots.list());
      assert.equal(err.status, 401);
      assert.equal(err.code, 'UNAUTHORIZED');
    });

    it('409 for a duplicate edge, 422 for a self-edge', async () => {
      const a = await sg.snapshots.create({ name: 'A', core: 'a' });
      const b = await sg.snapshots.create({ name: 'B', core: 'b' });
      await sg.edges.create({ source_id: a.id, target_id: b.id, edge_type: 'related_to' });
      const dup = await failure(sg.edges.create({ source_id: b.id, target_id: a.id, edge_type: 'related_to' }));
      assert.equal(dup.status, 409);
      assert.equal(dup.code, 'CONFLICT');
      const self = await failure(sg.edges.create({ source_id: a.id, target_id: a.id, edge_type: 'supports' }));
      assert.equal(self.status, 422);
      assert.equal(self.code, 'UNPROCESSABLE');
    });

    it('a body that is not ours (a proxy page) still becomes a SnapgraphError', async () => {
      const proxied = new SnapgraphClient({
        baseUrl: server.baseUrl,
        apiKey: 'sg_x',
        fetch: async () =>
          new Response('<html>Bad gateway</html>', { status: 502, headers: { 'x-request-id': 'req_proxy' } }),
      });
      const err = await failure(proxied.health());
      assert.equal(err.status, 502);
      assert.equal(err.code, 'HTTP_502');
      assert.equal(err.requestId, 'req_proxy');
      assert.match(err.message, /Bad gateway/);
    });
  });
});
