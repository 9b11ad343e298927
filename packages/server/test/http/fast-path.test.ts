// GET /v1/snapshots/:id has a fast path in front of Fastify (src/http/fast-path/snapshot-read.ts). Over real
// sockets, two servers on one database — one with the fast path, one answering everything
// through Fastify — must send the same status, the same headers in the same order and the same
// body for every kind of request, and the fast path must answer only the plain success.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { issueApiKey, revokeApiKey } from '../../src/domain/keys/index.js';
import type { Plan } from '../../src/model.js';
import { createTestDatabase, testBackend, type TestDatabase } from '../helpers/database.js';
import { connectTestApi, manualClock, snapshotBody } from '../helpers/harness.js';

interface Wire {
  status: number;
  /** Every header as sent, in order, except Date (which moves with the wall clock). */
  headers: string[];
  body: string;
}

/** One request over a fresh connection, as the bytes a client sees. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<Wire>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const raw: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i] as string;
          if (name.toLowerCase() !== 'date') raw.push(`${name}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: raw, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A request written by hand (for what Node's client never sends, such as HTTP/1.0), and the
 * response as raw text without its Date line, read up to the end of its body.
 */
function sendRaw(port: number, head: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n`));
    let text = '';
    const complete = () => {
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text)?.[1];
      return end !== -1 && length !== undefined && Buffer.byteLength(text) >= end + 4 + Number(length);
    };
    const finish = () => {
      socket.destroy();
      resolve(text.replace(/\r\nDate: [^\r]*/, ''));
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (complete()) finish();
    });
    socket.on('end', finish);
    socket.on('error', reject);
  });
}

/**
 * Requests written back to back on one connection, in one write (HTTP/1.1 pipelining), and the
 * responses as raw text without their Date lines, once all have arrived.
 */
function sendPipelined(port: number, heads: string[]) {
  return new Promise<string[]>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(heads.map((head) => `${head}\r\n`).join('')));
    let bytes = Buffer.alloc(0);
    const responses: string[] = [];
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      for (;;) {
        const end = bytes.indexOf('\r\n\r\n');
        if (end === -1) break;
        const length = /\r\ncontent-length: (\d+)/i.exec(bytes.toString('latin1', 0, end))?.[1];
        const size = end + 4 + Number(length);
        if (length === undefined || bytes.length < size) break;
        responses.push(bytes.toString('utf8', 0, size).replace(/\r\nDate: [^\r]*/, ''));
        bytes = bytes.subarray(size);
      }
      if (responses.length === heads.length) {
        socket.destroy();
        resolve(responses);
      }
    });
    socket.on('error', reject);
  });
}

describe('the fast path of GET /v1/snapshots/:id', () => {
  let dir: string;
  let database: TestDatabase;
  let fast: FastifyInstance;
  let plain: FastifyInstance;
  let fastPort: number;
  let plainPort: number;
  /** Requests that reached Fastify on the server with the fast path. */
  let reachedFastify = 0;
  let ownKey: string;
  let ownBrainId: string;
  let snapshotId: string;
  let otherAccountsSnapshot: string;
  const clock = manualClock();

  const newKey = async (plan: Plan, brainId?: string) => {
    const { key, record } = await issueApiKey(fast.domain, { plan, brainId });
    return { key, id: record.id, brainId: record.brain_id };
  };

  const start = async (fastPaths: boolean, rateLimits = true) => {
    const app = await buildApp({
      config: { databaseUrl: database.url, logLevel: 'silent', migrateOnStart: true, rateLimits },
      clock,
      fastPaths,
    });
    if (fastPaths) {
      // onSend runs for every answer Fastify sends, errors included, before it is sent.
      app.addHook('onSend', (_request, _reply, payload, done) => {
        reachedFastify += 1;
        done(null, payload);
      });
    }
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, port: (app.server.address() as AddressInfo).port };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snapgraph-fast-path-'));
    database = await createTestDatabase(dir);
    ({ app: fast, port: fastPort } = await start(true));
    ({ app: plain, port: plainPort } = await start(false));
    const own = await newKey('pro');
    ownKey = own.key;
    ownBrainId = own.brainId;
    const auth = { authorization: `Bearer ${ownKey}`, 'content-type': 'application/json' };
    const created = await send(plainPort, 'POST', '/v1/snapshots', auth, JSON.stringify(snapshotBody({ tags: ['a'] })));
    assert.equal(created.status, 201, created.body);
    snapshotId = JSON.parse(created.body).data.id;
    const other = await newKey('pro');
    const elsewhere = await send(
      plainPort,
      'POST',
      '/v1/snapshots',
      { authorization: `Bearer ${other.key}`, 'content-type': 'application/json' },
      JSON.stringify(snapshotBody()),
    );
    otherAccountsSnapshot = JSON.parse(elsewhere.body).data.id;
  });
  after(async () => {
    await fast?.close();
    await plain?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends the same request to both servers; returns the fast one's answer and how it went. */
  const both = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const before = reachedFastify;
    const viaFast = await send(fastPort, method, path, headers, body);
    const viaPlain = await send(plainPort, method, path, headers, body);
    assert.deepEqual(viaFast, viaPlain, `${method} ${path}: the two servers disagree`);
    return { response: viaFast, reachedFastify: reachedFastify - before };
  };

  let requestNumber = 0;
  const keyed = (key: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    connection: 'keep-alive',
    'x-request-id': `fast-path-${++requestNumber}`,
    ...extra,
  });

  it('answers the plain success itself, byte for byte as Fastify would', async () => {
    for (const prefix of ['/v1', '/api/v1']) {
      const { response, reachedFastify: viaFastify } = await both(
        'GET',
        `${prefix}/snapshots/${snapshotId}`,
        keyed(ownKey),
      );
      assert.equal(response.status, 200);
      assert.equal(JSON.parse(response.body).data.id, snapshotId);
      const names = response.headers.map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
      assert.deepEqual(names, [
        'x-request-id',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'ratelimit-policy',
        'ratelimit',
        'content-type',
        'x-content-type-options',
        'x-frame-options',
        'content-security-policy',
        'content-length',
        'connection',
        'keep-alive',
      ]);
      assert.ok(
        response.headers.some((line) => line.toLowerCase() === 'keep-alive: timeout=72'),
        'Fastify’s keep-alive timeout is kept',
      );
      assert.equal(viaFastify, testBackend === 'sqlite' ? 0 : 1, 'on SQLite the fast path answers it');
    }
  });

  it('leaves every other request to Fastify, which answers it exactly as before', async () => {
    const revoked = await newKey('pro');
    await revokeApiKey(fast.domain, revoked.id);
    const cases: [string, string, Record<string, string>, string?][] = [
      ['unknown snapshot', `/v1/snapshots/snap_00000000000000000000000000`, keyed(ownKey)],
      ["another account's snapshot", `/v1/snapshots/${otherAccountsSnapshot}`, keyed(ownKey)],
      ['no key', `/v1/snapshots/${snapshotId}`, { 'x-request-id': 'fast-path-anonymous' }],
      ['malformed Authorization', `/v1/snapshots/${snapshotId}`, { authorization: 'Basic abc', 'x-request-id': 'm1' }],
      ['unknown key', `/v1/snapshots/${snapshotId}`, keyed(`sg_${'x'.repeat(40)}`)],
      ['revoked key', `/v1/snapshots/${snapshotId}`, keyed(revoked.key)],
      ['trailing slash', `/v1/snapshots/${snapshotId}/`, keyed(ownKey)],
      ['query string', `/v1/snapshots/${snapshotId}?fields=all`, keyed(ownKey)],
      ['percent-encoded id', `/v1/snapshots/${snapshotId.replace('_', '%5F')}`, keyed(ownKey)],
      [
        'a body',
        `/v1/snapshots/${snapshotId}`,
        keyed(ownKey, { 'content-type': 'application/json', 'content-length': '2' }),
        '{}',
      ],
    ];
    for (const [name, path, headers, body] of cases) {
      const { reachedFastify: viaFastify } = await both('GET', path, headers, body);
      assert.equal(viaFastify, 1, `${name}: answered by Fastify`);
    }
    // Refused by the router itself (frameworkErrors), where no hook runs: compared only.
    await both('GET', `/v1/snapshots/${'a'.repeat(600)}`, keyed(ownKey));
    const head = await both('HEAD', `/v1/snapshots/${snapshotId}`, keyed(ownKey));
    assert.equal(head.response.status, 200);
    assert.equal(head.reachedFastify, 1);
  });

  it("keeps Node's connection handling: HTTP/1.0, Connection: close; leaves Expect to Fastify", async () => {
    const path = `/v1/snapshots/${snapshotId}`;
    const cases: [string, string, string, number][] = [
      ['HTTP/1.1, Connection: close', 'HTTP/1.1', 'Connection: close', 0],
      ['HTTP/1.0', 'HTTP/1.0', '', 0],
      ['HTTP/1.0, Connection: keep-alive', 'HTTP/1.0', 'Connection: keep-alive', 0],
      ['Expect: 100-continue', 'HTTP/1.1', 'Expect: 100-continue', 1],
    ];
    for (const [name, version, extra, expectedViaFastify] of cases) {
      const head = (n: number) =>
        [
          `GET ${path} ${version}`,
          'Host: 127.0.0.1',
          `Authorization: Bearer ${ownKey}`,
          `X-Request-Id: raw-${n}`,
          ...(extra ? [extra] : []),
          '',
        ].join('\r\n');
      const before = reachedFastify;
      const viaFast = await sendRaw(fastPort, head(++requestNumber));
      const viaFastify = reachedFastify - before;
      const viaPlain = await sendRaw(plainPort, head(requestNumber));
      assert.equal(viaFast, viaPlain, `${name}: the two servers disagree`);
      assert.match(viaFast, /^(HTTP\/1\.1 100 Continue\r\n\r\n)?HTTP\/1\.1 200 OK\r\n/, name);
      assert.equal(viaFastify, testBackend === 'sqlite' ? expectedViaFastify : 1, `${name}: who answered`);
    }
  });

  it('with rate limits off, answers the success itself with no rate-limit headers, as Fastify does', async () => {
    const fastOff = await start(true, false);
    const plainOff = await start(false, false);
    try {
      const before = reachedFastify;
      const headers = keyed(ownKey);
      const viaFast = await send(fastOff.port, 'GET', `/v1/snapshots/${snapshotId}`, headers);
      const viaFastify = reachedFastify - before;
      const viaPlain = await send(plainOff.port, 'GET', `/v1/snapshots/${snapshotId}`, headers);
      assert.deepEqual(viaFast, viaPlain);
      assert.equal(viaFast.status, 200);
      const names = viaFast.headers.map((line) => line.slice(0, line.indexOf(':')).toLowerCase());
      assert.deepEqual(names, [
        'x-request-id',
        'content-type',
        'x-content-type-options',
        'x-frame-options',
        'content-security-policy',
        'content-length',
        'connection',
        'keep-alive',
      ]);
      assert.equal(viaFastify, testBackend === 'sqlite' ? 0 : 1, 'on SQLite the fast path answers it');
    } finally {
      await fastOff.app.close();
      await plainOff.app.close();
    }
  });

  it(
    'sees a key revoked by another connection (the CLI) on its very next request',
    { skip: testBackend !== 'sqlite' },
    async () => {
      const key = await newKey('pro', ownBrainId);
      const path = `/v1/snapshots/${snapshotId}`;
      const first = await both('GET', path, keyed(key.key));
      assert.equal(first.response.status, 200);
      assert.equal(first.reachedFastify, 0, 'answered (and the key cached) by the fast path');
      const cli = await connectTestApi(database.url);
      try {
        await revokeApiKey(cli.app.domain, key.id);
      } finally {
        await cli.close();
      }
      const next = await both('GET', path, keyed(key.key));
      assert.equal(next.response.status, 401);
      assert.equal(JSON.parse(next.response.body).error.code, 'UNAUTHORIZED');
      assert.equal(next.reachedFastify, 1, 'the revoked key was refused, by Fastify');
    },
  );

  it('answers pipelined requests in order, the same bytes as Fastify, while busy turns hold its answers', async () => {
    const key = (await newKey('pro', ownBrainId)).key; // a fresh burst window of 30 reads
    const get = (path: string, requestId: string) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Request-Id: ${requestId}\r\n`;
    const one = `/v1/snapshots/${snapshotId}`;
    // Three answers in one turn make the next turn a busy one (turn-batch.ts), whose fast-path
    // answers wait for the turn to end while Fastify answers the 404 between them.
    const pipelines = [
      [get(one, 'p1'), get(one, 'p2'), get(`/api${one}`, 'p3')],
      [get(one, 'p4'), get('/v1/snapshots/snap_00000000000000000000000000', 'p5'), get(one, 'p6'), get(one, 'p7')],
    ];
    let last: string[] = [];
    for (const heads of pipelines) {
      const viaFast = await sendPipelined(fastPort, heads);
      const viaPlain = await sendPipelined(plainPort, heads);
      // On PostgreSQL (no fast path; every lookup awaits the database) pipelined requests may
      // take the rate limit in either order, so there the remaining counts are left out.
      const comparable = (texts: string[]) =>
        testBackend === 'sqlite' ? texts : texts.map((text) => text.replace(/(remaining: |r=)\d+/g, '$1…'));
      assert.deepEqual(comparable(viaFast), comparable(viaPlain), 'the two servers disagree');
      const ids = viaFast.map((text) => /\r\nx-request-id: (\S+)/.exec(text)?.[1]);
      assert.deepEqual(
        ids,
        heads.map((head) => /X-Request-Id: (\S+)/.exec(head)?.[1]),
        'in the order asked',
      );
      last = viaFast;
    }
    const [first, missing, ...rest] = last as [string, string, ...string[]];
    assert.match(missing, /^HTTP\/1\.1 404 /);
    for (const text of [first, ...rest]) {
      assert.match(text, /^HTTP\/1\.1 200 /);
      assert.equal(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).data.id, snapshotId);
    }
  });

  it('leaves requests to Fastify while the server drains, so they close their connections', async () => {
    fast.lifecycle.draining = true;
    plain.lifecycle.draining = true;
    try {
      const { response, reachedFastify: viaFastify } = await both('GET', `/v1/snapshots/${snapshotId}`, keyed(ownKey));
      assert.equal(response.status, 200);
      assert.ok(response.headers.includes('connection: close'), response.headers.join('\n'));
      assert.equal(viaFastify, 1);
    } finally {
      fast.lifecycle.draining = false;
      plain.lifecycle.draining = false;
    }
  });

  it('shares the rate limit with Fastify and leaves the 429 to it', async () => {
    const free = await newKey('free', ownBrainId); // a second key of the same account
    const answered: string[] = [];
    for (let i = 0; i < 12; i++) {
      const { response, reachedFastify: viaFastify } = await both(
        'GET',
        `/v1/snapshots/${snapshotId}`,
        keyed(free.key),
      );
      answered.push(`${response.status} ${viaFastify === 0 ? 'fast path' : 'Fastify'}`);
    }
    // Free: 10 snapshot reads a second; the clock stands still, so the 11th and 12th are refused.
    const fastAnswer = testBackend === 'sqlite' ? '200 fast path' : '200 Fastify';
    assert.deepEqual(answered, [...Array<string>(10).fill(fastAnswer), '429 Fastify', '429 Fastify']);
    const own = await both('GET', `/v1/snapshots/${snapshotId}`, keyed(ownKey));
    assert.equal(own.response.status, 200, 'another key is not affected');
  });
});
