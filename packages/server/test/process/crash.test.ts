// SIGKILL in the middle of a concurrent write load: every write the server acknowledged (201)
// must be there, intact, after a restart on the same database file.
import { testBackend } from '../helpers/database.js';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import {
  call,
  inBatches,
  makeWorkspace,
  startServer,
  stopAllServers,
  unlimitedKey,
  withTimeout,
  type CreatedKey,
  type ServerProcess,
  type Workspace,
} from './helpers/process-harness.js';

const EDGE_TYPES = ['supports', 'contradicts', 'elaborates', 'caused_by', 'evolved_from', 'related_to'];
const SNAPSHOT_TYPES = ['Belief', 'Model', 'Rule', 'Conviction', 'Principle'];
const LOOPS = 8;
/** Killed once this much is acknowledged (however long that takes here), so the test has weight. */
const KILL_AFTER = { snapshots: 40, edges: 10 };

type Row = Record<string, unknown> & { id: string };

function snapshotFor(loop: number, n: number): Record<string, unknown> {
  return {
    name: `Crash ${loop}.${n}`,
    core: `Loop ${loop} write ${n}: ${'durable '.repeat(1 + (n % 7))}`.trim(),
    type: SNAPSHOT_TYPES[n % SNAPSHOT_TYPES.length],
    story: n % 2 === 0 ? `A story ${'x'.repeat(200 + n)}` : undefined,
    emotion: n % 3 === 0 ? { primary: 'calm', intensity: (n % 10) / 10 } : undefined,
    confidence: (n % 11) / 10,
    tags: [`loop-${loop}`, `n-${n}`],
  };
}

describe('crash safety: SIGKILL during a concurrent write load', () => {
  let workspace: Workspace;
  let key: CreatedKey;
  before(async () => {
    workspace = await makeWorkspace('crash');
  });
  after(async () => {
    await stopAllServers();
    await workspace?.remove();
  });

  it('keeps every acknowledged snapshot and edge, intact, and the database file sound', async () => {
    const first: ServerProcess = await startServer(workspace.databasePath);
    key = await unlimitedKey(workspace.databasePath);

    const snapshots = new Map<string, Row>();
    const edges = new Map<string, Row>();
    const acknowledged: string[] = [];
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    const unexpected: string[] = [];
    let enough: () => void = () => undefined;
    const acknowledgedEnough = new Promise<void>((resolve) => (enough = resolve));
    const countAcknowledged = () => {
      if (snapshots.size >= KILL_AFTER.snapshots && edges.size >= KILL_AFTER.edges) enough();
    };

    const send = async (path: string, body: unknown) => {
      inFlight++;
      try {
        return await call(first.baseUrl, 'POST', path, { key: key.key, body });
      } finally {
        inFlight--;
      }
    };

    const loop = async (index: number) => {
      for (let n = 0; !killed; n++) {
        try {
          if (acknowledged.length >= 2 && n % 3 === 2) {
            const source = acknowledged[Math.floor(Math.random() * acknowledged.length)] as string;
            let target = acknowledged[Math.floor(Math.random() * acknowledged.length)] as string;
            if (target === source) target = acknowledged.find((id) => id !== source) as string;
            const body = {
              source_id: source,
              target_id: target,
              edge_type: EDGE_TYPES[n % EDGE_TYPES.length],
              strength: Math.round(Math.random() * 100) / 100,
              label: n % 2 === 0 ? `loop ${index} edge ${n}` : undefined,
            };
            const response = await send('/v1/edges', body);
            if (response.status === 201) {
              edges.set(response.body.data.id, response.body.data);
              countAcknowledged();
            } else if (response.status !== 409) unexpected.push(`POST /v1/edges ${response.status} ${response.text}`);
          } else {
            const response = await send('/v1/snapshots', snapshotFor(index, n));
            if (response.status === 201) {
              snapshots.set(response.body.data.id, response.body.data);
              acknowledged.push(response.body.data.id);
              countAcknowledged();
            } else unexpected.push(`POST /v1/snapshots ${response.status} ${response.text}`);
          }
        } catch {
          // The server was killed under this request: it was never acknowledged.
          if (!killed) unexpected.push('a request failed before the server was killed');
          return;
        }
      }
    };

    const loops = Array.from({ length: LOOPS }, (_, i) => loop(i));
    await withTimeout(
      acknowledgedEnough,
      `${KILL_AFTER.snapshots} snapshots and ${KILL_AFTER.edges} edges acknowledged`,
    );
    inFlightAtKill = inFlight;
    killed = true;
    first.child.kill('SIGKILL');
    const exit = await first.exited;
    await Promise.all(loops);

    assert.equal(exit.signal, 'SIGKILL', `the server was not killed by the signal: ${JSON.stringify(exit)}`);
    assert.deepEqual(unexpected, [], 'requests failed before the kill');
    assert.ok(inFlightAtKill > 0, 'no request was in flight at the kill: the test proves nothing');

    const second = await startServer(workspace.databasePath);
    const missing: string[] = [];
    const changed: string[] = [];
    await inBatches([...snapshots.values()], 16, async (expected) => {
      const read = await call(second.baseUrl, 'GET', `/v1/snapshots/${expected.id}`, { key: key.key });
      if (read.status !== 200) missing.push(`${expected.id}: ${read.status}`);
      else if (!isDeepStrictEqual(read.body.data, expected)) changed.push(expected.id);
    });
    assert.deepEqual(missing, [], `${missing.length} of ${snapshots.size} acknowledged snapshots are gone`);
    assert.deepEqual(changed, [], 'acknowledged snapshots came back different');

    const stored = new Map<string, Row>();
    for (let offset = 0; ; offset += 200) {
      const page = await call(second.baseUrl, 'GET', `/v1/edges?brain_id=${key.brain_id}&limit=200&offset=${offset}`, {
        key: key.key,
      });
      assert.equal(page.status, 200, page.text);
      for (const edge of page.body.data as Row[]) stored.set(edge.id, edge);
      if (page.body.data.length < 200) break;
    }
    const missingEdges = [...edges.keys()].filter((id) => !stored.has(id));
    assert.deepEqual(missingEdges, [], `${missingEdges.length} of ${edges.size} acknowledged edges are gone`);
    for (const [id, expected] of edges) assert.deepEqual(stored.get(id), expected, `edge ${id} came back different`);

    await second.stop('SIGTERM');
    if (testBackend !== 'sqlite') return; // PostgreSQL's own recovery is PostgreSQL's to test
    const db = new Database(workspace.databasePath, { fileMustExist: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    } finally {
      db.close();
    }
  });
});
