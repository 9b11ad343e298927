// `snapgraph serve` on a real port, spoken to over real HTTP.
import assert from 'node:assert/strict';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  call,
  HANG_GUARD_MS,
  HOST,
  makeWorkspace,
  snapshotBody,
  startServer,
  stopAllServers,
  unlimitedKey,
  type CreatedKey,
  type JsonResponse,
  type ServerProcess,
  type Workspace,
} from './helpers/process-harness.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const OPTIONAL_TEXT = [
  'one_liner',
  'story',
  'moment',
  'source',
  'trigger_pattern',
  'method',
  'steps',
  'filter',
  'challenge',
  'break_test',
  'risks',
  'proof',
];

function assertJsonWithRequestId(response: JsonResponse, what: string): void {
  assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/, `${what}: content-type`);
  const requestId = response.headers.get('x-request-id');
  assert.ok(requestId && requestId.length > 0, `${what}: no X-Request-Id header`);
}

/** Writes `text` on a fresh connection and reads until the server closes it. */
function exchangeRaw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, HOST, () => socket.write(text));
    let received = '';
    socket.setEncoding('utf8');
    socket.setTimeout(HANG_GUARD_MS, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

/** A raw HTTP/1.1 answer taken apart: status, lower-cased headers, body parsed as JSON. */
function parseRaw(text: string): { status: number; headers: Map<string, string>; body: any } {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

describe('snapgraph serve over real HTTP', () => {
  let workspace: Workspace;
  let server: ServerProcess;
  let key: CreatedKey;
  let base: string;

  before(async () => {
    workspace = await makeWorkspace('http');
    server = await startServer(workspace.databasePath);
    base = server.baseUrl;
    // The hint is printed just after the port opens, as long as no key exists: wait for it
    // before making one (the first test asserts what it says).
    await server.printed(/keys create/);
    key = await unlimitedKey(workspace.databasePath);
  });
  after(async () => {
    await stopAllServers();
    await workspace?.remove();
  });

  it('started on an empty database, prints on stderr how to create an API key', () => {
    const stderr = server.stderr();
    assert.ok(
      stderr.includes('snapgraph keys create'),
      `no "snapgraph keys create" hint on stderr: ${JSON.stringify(stderr)}`,
    );
    assert.match(stderr, /no api key/i);
  });

  it('answers 401 without a key or with a wrong one, as JSON with WWW-Authenticate: Bearer', async () => {
    const fake = `sg_${'A'.repeat(40)}`;
    for (const [what, sent] of [
      ['no key', null],
      ['unknown key', fake],
    ] as const) {
      for (const [method, path, body] of [
        ['GET', '/v1/snapshots', undefined],
        ['POST', '/v1/snapshots', snapshotBody()],
        ['GET', '/v1/edges?brain_id=brain_x', undefined],
      ] as const) {
        const response = await call(base, method, path, { key: sent, body });
        assert.equal(response.status, 401, `${what} ${method} ${path}: ${response.text}`);
        assertJsonWithRequestId(response, `${what} ${method} ${path}`);
        assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer\b/);
        assert.equal(response.body.error.code, 'UNAUTHORIZED');
        assert.equal(typeof response.body.error.message, 'string');
        assert.equal(response.body.request_id, response.headers.get('x-request-id'));
      }
    }
  });

  it('creates, reads, lists, updates and deletes snapshots', async () => {
    const created = await call(base, 'POST', '/v1/snapshots', {
      key: key.key,
      body: snapshotBody({ name: 'Process test', tags: ['a', 'b'], story: 'once upon a time' }),
    });
    assert.equal(created.status, 201, created.text);
    assertJsonWithRequestId(created, 'POST /v1/snapshots');
    const snapshot = created.body.data;
    assert.match(snapshot.id, /^snap_/);
    assert.equal(snapshot.brain_id, key.brain_id);
    assert.equal(snapshot.name, 'Process test');
    assert.equal(snapshot.type, 'Belief');
    assert.equal(snapshot.confidence, 0.5);
    assert.equal(snapshot.significance_score, 0.5);
    assert.deepEqual(snapshot.tags, ['a', 'b']);
    assert.equal(snapshot.story, 'once upon a time');
    assert.equal(snapshot.emotion, null);
    assert.equal(snapshot.source_type, 'manual');
    assert.equal(snapshot.source_id, null);
    for (const field of OPTIONAL_TEXT.filter((f) => f !== 'story')) assert.equal(snapshot[field], null, field);
    assert.match(snapshot.created_at, ISO_MS);
    assert.match(snapshot.updated_at, ISO_MS);

    const second = await call(base, 'POST', '/v1/snapshots', {
      key: key.key,
      body: snapshotBody({ name: 'Second', type: 'Rule' }),
    });
    assert.equal(second.status, 201, second.text);

    const read = await call(base, 'GET', `/v1/snapshots/${snapshot.id}`, { key: key.key });
    assert.equal(read.status, 200, read.text);
    assertJsonWithRequestId(read, 'GET /v1/snapshots/:id');
    assert.deepEqual(read.body, { data: snapshot });

    const listed = await call(base, 'GET', '/v1/snapshots', { key: key.key });
    assert.equal(listed.status, 200, listed.text);
    assertJsonWithRequestId(listed, 'GET /v1/snapshots');
    assert.equal(listed.body.count, 2);
    assert.deepEqual(
      listed.body.data.map((s: { id: string }) => s.id),
      [second.body.data.id, snapshot.id],
      'newest first',
    );
    const rules = await call(base, 'GET', '/v1/snapshots?type=Rule&limit=1', { key: key.key });
    assert.equal(rules.status, 200, rules.text);
    assert.deepEqual(
      rules.body.data.map((s: { id: string }) => s.id),
      [second.body.data.id],
    );

    const updated = await call(base, 'PUT', `/v1/snapshots/${snapshot.id}`, {
      key: key.key,
      body: { name: 'Renamed', confidence: 0.9, tags: ['c'] },
    });
    assert.equal(updated.status, 200, updated.text);
    assertJsonWithRequestId(updated, 'PUT /v1/snapshots/:id');
    assert.equal(updated.body.data.name, 'Renamed');
    assert.equal(updated.body.data.confidence, 0.9);
    assert.deepEqual(updated.body.data.tags, ['c']);
    assert.equal(updated.body.data.core, snapshot.core);
    assert.equal(updated.body.data.story, snapshot.story);
    assert.equal(updated.body.data.created_at, snapshot.created_at);
    assert.ok(updated.body.data.updated_at > snapshot.updated_at, 'updated_at must move forward');
    const reread = await call(base, 'GET', `/v1/snapshots/${snapshot.id}`, { key: key.key });
    assert.deepEqual(reread.body, updated.body);

    const deleted = await call(base, 'DELETE', `/v1/snapshots/${snapshot.id}`, { key: key.key });
    assert.equal(deleted.status, 200, deleted.text);
    assertJsonWithRequestId(deleted, 'DELETE /v1/snapshots/:id');
    assert.deepEqual(deleted.body, { data: { success: true } });
    const gone = await call(base, 'GET', `/v1/snapshots/${snapshot.id}`, { key: key.key });
    assert.equal(gone.status, 404, gone.text);
    assertJsonWithRequestId(gone, 'GET of a deleted snapshot');
    assert.equal(gone.body.error.code, 'NOT_FOUND');
    const remaining = await call(base, 'GET', '/v1/snapshots', { key: key.key });
    assert.equal(remaining.body.count, 1);
  });

  it('creates, lists, updates and deletes edges', async () => {
    const ids: string[] = [];
    for (const name of ['Edge source', 'Edge target', 'Edge third']) {
      const created = await call(base, 'POST', '/v1/snapshots', { key: key.key, body: snapshotBody({ name }) });
      assert.equal(created.status, 201, created.text);
      ids.push(created.body.data.id);
    }
    const [a, b, c] = ids as [string, string, string];

    const created = await call(base, 'POST', '/v1/edges', {
      key: key.key,
      body: { source_id: a, target_id: b, edge_type: 'supports', label: 'evidence' },
    });
    assert.equal(created.status, 201, created.text);
    assertJsonWithRequestId(created, 'POST /v1/edges');
    const edge = created.body.data;
    assert.match(edge.id, /^edge_/);
    assert.equal(edge.brain_id, key.brain_id);
    assert.equal(edge.source_id, a);
    assert.equal(edge.target_id, b);
    assert.equal(edge.edge_type, 'supports');
    assert.equal(edge.strength, 0.5);
    assert.equal(edge.label, 'evidence');
    assert.match(edge.created_at, ISO_MS);
    assert.match(edge.updated_at, ISO_MS);

    const other = await call(base, 'POST', '/v1/edges', {
      key: key.key,
      body: { source_id: c, target_id: a, edge_type: 'contradicts', strength: 0.8 },
    });
    assert.equal(other.status, 201, other.text);
    const duplicate = await call(base, 'POST', '/v1/edges', {
      key: key.key,
      body: { source_id: a, target_id: b, edge_type: 'supports' },
    });
    assert.equal(duplicate.status, 409, duplicate.text);
    assertJsonWithRequestId(duplicate, 'duplicate POST /v1/edges');

    const ofSnapshot = await call(base, 'GET', `/v1/edges?snapshot_id=${a}`, { key: key.key });
    assert.equal(ofSnapshot.status, 200, ofSnapshot.text);
    assertJsonWithRequestId(ofSnapshot, 'GET /v1/edges');
    assert.equal(ofSnapshot.body.total, 2);
    assert.deepEqual(
      ofSnapshot.body.data.map((e: { id: string }) => e.id).sort(),
      [edge.id, other.body.data.id].sort(),
    );
    const ofBrain = await call(
      base,
      'GET',
      `/v1/edges?brain_id=${key.brain_id}&edge_type=contradicts&min_strength=0.5`,
      {
        key: key.key,
      },
    );
    assert.equal(ofBrain.status, 200, ofBrain.text);
    assert.deepEqual(ofBrain.body, { data: [other.body.data], total: 1 });

    const updated = await call(base, 'PUT', `/v1/edges/${edge.id}`, {
      key: key.key,
      body: { strength: 0.95, label: 'strong evidence' },
    });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.data.strength, 0.95);
    assert.equal(updated.body.data.label, 'strong evidence');
    for (const field of ['id', 'brain_id', 'source_id', 'target_id', 'edge_type', 'created_at']) {
      assert.equal(updated.body.data[field], edge[field], field);
    }
    assert.ok(updated.body.data.updated_at > edge.updated_at, 'updated_at must move forward');

    const deleted = await call(base, 'DELETE', `/v1/edges/${edge.id}`, { key: key.key });
    assert.equal(deleted.status, 200, deleted.text);
    assertJsonWithRequestId(deleted, 'DELETE /v1/edges/:id');
    assert.equal(typeof deleted.body.message, 'string');
    const afterDelete = await call(base, 'GET', `/v1/edges?snapshot_id=${a}`, { key: key.key });
    assert.deepEqual(afterDelete.body, { data: [other.body.data], total: 1 });
    // Deleting an edge leaves both snapshots in place.
    for (const id of [a, b]) {
      assert.equal((await call(base, 'GET', `/v1/snapshots/${id}`, { key: key.key })).status, 200);
    }
  });

  it('gives every response, errors and unknown routes included, a JSON body and an X-Request-Id', async () => {
    const responses: [string, JsonResponse][] = [
      ['GET list', await call(base, 'GET', '/v1/snapshots', { key: key.key })],
      ['400', await call(base, 'POST', '/v1/snapshots', { key: key.key, body: { name: 'no core' } })],
      ['404 id', await call(base, 'GET', '/v1/snapshots/snap_00000000000000000000000000', { key: key.key })],
      ['404 route', await call(base, 'GET', '/v1/no-such-route', { key: key.key })],
      ['400 edges', await call(base, 'GET', '/v1/edges', { key: key.key })],
    ];
    const seen = new Set<string>();
    for (const [what, response] of responses) {
      assertJsonWithRequestId(response, what);
      assert.doesNotThrow(() => JSON.parse(response.text), `${what}: body is not JSON`);
      const id = response.headers.get('x-request-id') as string;
      assert.ok(!seen.has(id), `${what}: X-Request-Id ${id} was reused`);
      seen.add(id);
      if (response.status >= 400) {
        assert.equal(typeof response.body.error?.code, 'string', `${what}: error body ${response.text}`);
        assert.equal(response.body.request_id, id, `${what}: request_id differs from the header`);
      }
    }
    assert.deepEqual(
      responses.map(([, r]) => r.status),
      [200, 400, 404, 404, 400],
    );
  });

  // Requests Node itself refuses before any route sees them, and a path no client library would
  // send (`..` unnormalized): the documented error body and a request id all the same, never 500.
  const unusual: [string, string, number, string][] = [
    [
      'headers over 16 KiB',
      `GET /v1/snapshots HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
    [
      'a header line without a colon',
      'GET /v1/snapshots HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      400,
      'BAD_REQUEST',
    ],
    ['not HTTP at all', 'HELLO\r\n\r\n', 400, 'BAD_REQUEST'],
    [
      'a docs path climbing out with ..',
      'GET /v1/docs/static/../../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      404,
      'NOT_FOUND',
    ],
  ];
  for (const [what, text, status, code] of unusual) {
    it(`answers ${what} with ${status} ${code} in the documented body`, async () => {
      const answer = parseRaw(await exchangeRaw(server.port, text));
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(answer.body.error.code, code);
      assert.equal(typeof answer.body.error.message, 'string');
      assert.match(answer.body.request_id, /^req_/);
      assert.equal(answer.headers.get('x-request-id'), answer.body.request_id);
    });
  }

  it('serves several requests, writes included, over one kept-alive connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const send = (method: string, path: string, body?: unknown) =>
        new Promise<{ status: number; headers: IncomingHttpHeaders; body: any; reused: boolean; localPort: number }>(
          (resolve, reject) => {
            const payload = body === undefined ? undefined : JSON.stringify(body);
            const req = httpRequest(
              {
                host: HOST,
                port: server.port,
                method,
                path,
                agent,
                timeout: HANG_GUARD_MS,
                headers: {
                  authorization: `Bearer ${key.key}`,
                  ...(payload
                    ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
                    : {}),
                },
              },
              (res) => {
                let text = '';
                res.setEncoding('utf8');
                res.on('data', (chunk: string) => (text += chunk));
                res.on('end', () =>
                  resolve({
                    status: res.statusCode ?? 0,
                    headers: res.headers,
                    body: JSON.parse(text),
                    reused: req.reusedSocket,
                    localPort: req.socket?.localPort ?? -1,
                  }),
                );
                res.on('error', reject);
              },
            );
            req.on('timeout', () => req.destroy(new Error('request timed out')));
            req.on('error', reject);
            req.end(payload);
          },
        );

      const results = [];
      results.push(await send('GET', '/v1/snapshots'));
      const created = await send('POST', '/v1/snapshots', snapshotBody({ name: 'Kept alive' }));
      results.push(created);
      results.push(await send('GET', `/v1/snapshots/${created.body.data.id}`));
      results.push(await send('PUT', `/v1/snapshots/${created.body.data.id}`, { name: 'Still alive' }));
      results.push(await send('GET', '/v1/snapshots/snap_00000000000000000000000000'));
      results.push(await send('DELETE', `/v1/snapshots/${created.body.data.id}`));

      assert.deepEqual(
        results.map((r) => r.status),
        [200, 201, 200, 200, 404, 200],
      );
      assert.equal(results[0]?.reused, false);
      for (const [i, result] of results.entries()) {
        assert.notEqual(result.headers.connection, 'close', `response ${i} closed the connection`);
        if (i > 0) assert.equal(result.reused, true, `request ${i} did not reuse the kept-alive connection`);
        assert.equal(result.localPort, results[0]?.localPort, `request ${i} used another connection`);
      }
    } finally {
      agent.destroy();
    }
  });
});
