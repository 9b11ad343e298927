// What a window is and where the limit sits among the other checks (design §3.2, §5.3-§5.5; design
// §3.7 order of checks, §5, §3.1): windows per key and per group, shared by every spelling of a
// route; errors count and carry headers; 429 after 401 and before 413/415/400/404/409/422;
// enterprise limits and live changes; requests without a valid key limited per address.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { revokeApiKey, updateApiKeyLimits } from '../../src/domain/keys/index.js';
import { newId } from '../../src/ids.js';
import { manualClock, snapshotBody, startTestApi, type ApiResponse, type TestApi } from '../helpers/harness.js';
import {
  GROUPS,
  MINUTE,
  SECOND,
  SPEC_LIMITS,
  assertAdmitted,
  assertRateLimitHeaders,
  assertRateLimited,
  makeFixture,
  routesOf,
  send,
  type Fixture,
  type Group,
} from './support.js';

const FREE = SPEC_LIMITS.free;
const ONE_MIB = 1024 * 1024;
const UNKNOWN_KEY = `sg_${'Q'.repeat(40)}`;

/** A request from a chosen client address (the harness always uses 127.0.0.1). */
async function from(
  api: TestApi,
  address: string,
  method: string,
  url: string,
  options: { key?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const raw = await api.app.inject({
    method: method as 'GET',
    url,
    headers,
    remoteAddress: address,
    ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
  });
  let body: unknown = raw.body;
  try {
    body = raw.body === '' ? undefined : JSON.parse(raw.body);
  } catch {
    // not JSON
  }
  return { status: raw.statusCode, headers: raw.headers, body, raw };
}

describe('rate-limit windows and their place among the checks (manual clock)', () => {
  const clock = manualClock(Date.parse('2026-02-01T00:00:00.000Z') + 250);
  let api: TestApi;
  let fixture: Fixture;
  let otherAccountSnapshot: string;
  before(async () => {
    api = await startTestApi({ rateLimits: true, clock });
    ({ fixture } = await makeFixture(api));
    const stranger = await api.newKey({ plan: 'enterprise', rpm: 1000, burst: 1000 });
    const created = await api.request('POST', '/v1/snapshots', { key: stranger, body: snapshotBody() });
    otherAccountSnapshot = created.body.data.id;
  });
  after(() => api.close());

  const freshInstant = () => {
    clock.advance(2 * MINUTE + 77);
    return clock.now();
  };
  const freeKey = () => api.newKey({ plan: 'free', brainId: fixture.brainId });

  /** Uses up the burst of a group with its first route, at the current instant. */
  async function exhaustBurst(key: Awaited<ReturnType<typeof freeKey>>, group: Group) {
    const route = routesOf(group)[0]!;
    for (let i = 0; i < FREE[group].perSecond; i++)
      assertAdmitted(await send(api, route, key, fixture), `fill ${group}`);
    assertRateLimited(await send(api, route, key, fixture), 1, `${group} full`);
  }

  describe('independence', () => {
    for (const group of GROUPS) {
      it(`${group}: two keys of one account do not share a window`, async () => {
        freshInstant();
        const a = await freeKey();
        const b = await freeKey();
        await exhaustBurst(a, group);
        for (const route of routesOf(group)) {
          const res = await send(api, route, b, fixture);
          assertAdmitted(res, `key B, ${route.name}`);
          assertRateLimited(await send(api, route, a, fixture), 1, `key A, ${route.name}`);
        }
        const res = await send(api, routesOf(group)[0]!, b, fixture);
        const used = routesOf(group).length + 1;
        assertRateLimitHeaders(res, { limit: FREE[group].perMinute, remaining: FREE[group].perMinute - used });
      });

      it(`${group}: the other groups of the same key do not share its window`, async () => {
        freshInstant();
        const key = await freeKey();
        await exhaustBurst(key, group);
        for (const other of GROUPS.filter((g) => g !== group)) {
          for (const route of routesOf(other)) {
            assertAdmitted(await send(api, route, key, fixture), `${other} ${route.name}`);
          }
          const res = await send(api, routesOf(other)[0]!, key, fixture);
          assertRateLimitHeaders(res, {
            limit: FREE[other].perMinute,
            remaining: FREE[other].perMinute - routesOf(other).length - 1,
          });
        }
        assertRateLimited(await send(api, routesOf(group)[0]!, key, fixture), 1, `${group} still full`);
      });
    }
  });

  it('a 429 names the window that refused in the draft RateLimit header, its t equal to Retry-After', async () => {
    freshInstant();
    const key = await freeKey();
    const route = routesOf('snapshots_read')[0]!;
    const { perMinute, perSecond } = FREE.snapshots_read;
    await exhaustBurst(key, 'snapshots_read');
    const burstRefusal = await send(api, route, key, fixture);
    assertRateLimited(burstRefusal, 1, 'burst full');
    assert.equal(burstRefusal.headers.ratelimit, '"second";r=0;t=1', 'refused by the burst: wait a second');

    let used = perSecond;
    while (used < perMinute) {
      clock.advance(SECOND);
      for (let i = 0; i < perSecond && used < perMinute; i++, used++) {
        assertAdmitted(await send(api, route, key, fixture), `request ${used + 1}`);
      }
    }
    clock.advance(SECOND);
    const minuteRefusal = await send(api, route, key, fixture);
    const retryAfter = assertRateLimited(minuteRefusal, undefined, 'minute full');
    assert.ok(retryAfter > 1, `the minute window frees later than a second: ${retryAfter}`);
    assert.equal(minuteRefusal.headers.ratelimit, `"minute";r=0;t=${retryAfter}`, 'refused by the minute');
  });

  describe('every spelling of a route shares one window', () => {
    const spellings: Record<Group, (f: Fixture) => [string, string, unknown?][]> = {
      snapshots_read: (f) => [
        ['GET', '/v1/snapshots'],
        ['GET', '/api/v1/snapshots'],
        ['GET', '/v1/snapshots/'],
        ['GET', '/v1/snapshots?limit=5'],
        ['GET', `/v1/snapshots/${f.snapshotA}`],
        ['GET', `/api/v1/snapshots/${f.snapshotB}`],
        ['GET', `/v1/snapshots/${newId('snap')}`],
        ['GET', '/api/v1/brains'],
        ['GET', `/api/v1/brains/${f.brainId}`],
        ['GET', `/v1/brains/${newId('brain')}`],
      ],
      snapshots_write: (f) => [
        ['POST', '/api/v1/snapshots', snapshotBody()],
        ['PUT', `/api/v1/snapshots/${f.snapshotB}`, { name: 'B again' }],
        ['DELETE', `/v1/snapshots/${newId('snap')}`],
        ['DELETE', `/api/v1/snapshots/${newId('snap')}`],
        ['POST', '/api/v1/brains', { name: 'via api prefix' }],
      ],
      edges: (f) => [
        ['GET', `/v1/edges/${f.edgeId}`],
        ['GET', `/api/v1/edges/${f.edgeId}`],
        ['GET', `/v1/edges/${newId('edge')}`],
        ['GET', `/api/v1/edges?brain_id=${f.brainId}`],
        ['GET', `/v1/edges?snapshot_id=${f.snapshotB}`],
        ['PUT', `/api/v1/edges/${f.edgeId}`, { strength: 0.4 }],
        ['DELETE', `/api/v1/edges/${newId('edge')}`],
        ['POST', '/api/v1/edges', { source_id: f.snapshotB, target_id: f.snapshotA, edge_type: 'contradicts' }],
        ['PATCH', `/api/v1/edges/${f.edgeId}`],
        ['GET', `/v1/edges/${f.edgeId}/`],
      ],
    };
    for (const group of GROUPS) {
      it(`${group}: /v1 and /api/v1, trailing slashes, queries and different ids count down one window`, async () => {
        freshInstant();
        const key = await freeKey();
        const list = spellings[group](fixture);
        const { perMinute, perSecond } = FREE[group];
        assert.ok(list.length >= perSecond, 'test design: enough spellings to fill the burst');
        for (let i = 0; i < perSecond; i++) {
          const [method, url, body] = list[i]!;
          const res = await api.request(method, url, { key, ...(body !== undefined ? { body } : {}) });
          assertAdmitted(res, `${method} ${url}`);
          assertRateLimitHeaders(res, { limit: perMinute, remaining: perMinute - i - 1 }, `${method} ${url}`);
        }
        for (const [method, url, body] of list) {
          const res = await api.request(method, url, { key, ...(body !== undefined ? { body } : {}) });
          assertRateLimited(res, 1, `${method} ${url} after the burst was used by other spellings`);
        }
      });
    }
  });

  it('routes that come later (search, crystallize, memories, specific-knowledge) already count in their own groups', async () => {
    freshInstant();
    const key = await freeKey();
    // The Free rows of design §5.3 for the groups with no route yet, per minute.
    const later: [string, string, string, number][] = [
      ['GET', '/v1/snapshots/search?q=ideas', 'search', 30],
      ['GET', '/api/v1/snapshots/search', 'search', 30],
      ['POST', '/v1/crystallize', 'crystallize', 10],
      ['GET', '/v1/memories/recent', 'memories', 60],
      ['POST', '/api/v1/memories/store', 'memories', 60],
      ['POST', '/v1/specific-knowledge/extract', 'knowledge', 10],
    ];
    const used = new Map<string, number>();
    for (const [method, url, group, perMinute] of later) {
      used.set(group, (used.get(group) ?? 0) + 1);
      const res = await api.request(method, url, { key });
      assertRateLimitHeaders(res, { limit: perMinute, remaining: perMinute - used.get(group)! }, `${method} ${url}`);
    }
    const read = await send(api, routesOf('snapshots_read')[0]!, key, fixture);
    const { perMinute } = FREE.snapshots_read;
    assertRateLimitHeaders(read, { limit: perMinute, remaining: perMinute - 1 }, 'snapshot reads untouched by them');
  });

  describe('errors are counted and carry the headers', () => {
    const cases: {
      name: string;
      group?: Group;
      status: number;
      request: (
        f: Fixture,
        other: string,
      ) => { method: string; url: string; body?: unknown; raw?: string; type?: string };
    }[] = [
      {
        name: 'GET /v1/snapshots/unknown',
        group: 'snapshots_read',
        status: 404,
        request: () => ({ method: 'GET', url: '/v1/snapshots/unknown' }),
      },
      {
        name: "GET another account's snapshot",
        group: 'snapshots_read',
        status: 404,
        request: (_f, other) => ({ method: 'GET', url: `/v1/snapshots/${other}` }),
      },
      {
        name: 'GET /v1/snapshots?limit=abc',
        group: 'snapshots_read',
        status: 400,
        request: () => ({ method: 'GET', url: '/v1/snapshots?limit=abc' }),
      },
      {
        name: 'GET /v1/brains/<missing>',
        group: 'snapshots_read',
        status: 404,
        request: () => ({ method: 'GET', url: `/v1/brains/${newId('brain')}` }),
      },
      {
        name: 'POST /v1/snapshots with an unknown field',
        group: 'snapshots_write',
        status: 400,
        request: () => ({ method: 'POST', url: '/v1/snapshots', body: snapshotBody({ bogus: 1 }) }),
      },
      {
        name: 'POST /v1/snapshots with malformed JSON',
        group: 'snapshots_write',
        status: 400,
        request: () => ({ method: 'POST', url: '/v1/snapshots', raw: '{"name":', type: 'application/json' }),
      },
      {
        name: 'POST /v1/snapshots as text/plain',
        group: 'snapshots_write',
        status: 415,
        request: () => ({ method: 'POST', url: '/v1/snapshots', raw: 'hello', type: 'text/plain' }),
      },
      {
        name: 'POST /v1/snapshots over 1 MiB',
        group: 'snapshots_write',
        status: 413,
        request: () => ({
          method: 'POST',
          url: '/v1/snapshots',
          raw: JSON.stringify({ name: 'big', core: 'x'.repeat(ONE_MIB) }),
          type: 'application/json',
        }),
      },
      {
        name: 'PUT /v1/snapshots/<missing>',
        group: 'snapshots_write',
        status: 404,
        request: () => ({ method: 'PUT', url: `/v1/snapshots/${newId('snap')}`, body: { name: 'x' } }),
      },
      {
        name: 'POST /v1/edges duplicate',
        group: 'edges',
        status: 409,
        request: (f) => ({
          method: 'POST',
          url: '/v1/edges',
          body: { source_id: f.snapshotA, target_id: f.snapshotB, edge_type: 'elaborates' },
        }),
      },
      {
        name: 'POST /v1/edges from a snapshot to itself',
        group: 'edges',
        status: 422,
        request: (f) => ({
          method: 'POST',
          url: '/v1/edges',
          body: { source_id: f.snapshotA, target_id: f.snapshotA, edge_type: 'supports' },
        }),
      },
      {
        name: 'GET /v1/edges without a filter',
        group: 'edges',
        status: 400,
        request: () => ({ method: 'GET', url: '/v1/edges' }),
      },
      {
        name: 'DELETE /v1/edges/<missing>',
        group: 'edges',
        status: 404,
        request: () => ({ method: 'DELETE', url: `/v1/edges/${newId('edge')}` }),
      },
      {
        name: 'GET /v1/snapshots/snap_%zz (refused by the router before any hook)',
        group: 'snapshots_read',
        status: 400,
        request: () => ({ method: 'GET', url: '/v1/snapshots/snap_%zz' }),
      },
      {
        name: 'DELETE /api/v1/edges/<101-character id> (refused by the router before any hook)',
        group: 'edges',
        status: 404,
        request: () => ({ method: 'DELETE', url: `/api/v1/edges/edge_${'A'.repeat(96)}` }),
      },
      { name: 'PATCH /v1/snapshots (405)', status: 405, request: () => ({ method: 'PATCH', url: '/v1/snapshots' }) },
      {
        name: 'GET /v1/no-such-route (404)',
        status: 404,
        request: () => ({ method: 'GET', url: '/v1/no-such-route' }),
      },
    ];
    for (const c of cases) {
      it(`${c.name}: ${c.status} with X-RateLimit-* headers${c.group ? `, and it counts in ${c.group}` : ''}`, async () => {
        const t = freshInstant();
        const key = await freeKey();
        const r = c.request(fixture, otherAccountSnapshot);
        const res = await api.request(r.method, r.url, {
          key,
          ...(r.body !== undefined ? { body: r.body } : {}),
          ...(r.raw !== undefined ? { rawBody: r.raw, headers: { 'content-type': r.type ?? 'application/json' } } : {}),
        });
        assert.equal(res.status, c.status, JSON.stringify(res.body));
        if (!c.group) {
          for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
            assert.match(String(res.headers[name]), /^\d+$/, `${name} on the ${c.status}`);
          }
          return;
        }
        const { perMinute } = FREE[c.group];
        assertRateLimitHeaders(res, { limit: perMinute, remaining: perMinute - 1, resetAtMs: t + MINUTE });
        const next = await send(api, routesOf(c.group)[0]!, key, fixture);
        assertAdmitted(next, 'the next good request');
        assertRateLimitHeaders(next, { limit: perMinute, remaining: perMinute - 2 }, 'the error was counted');
      });
    }
  });

  describe('429 comes after authentication and before everything else', () => {
    const rejected: {
      name: string;
      group: Group;
      method: string;
      url: (f: Fixture) => string;
      body?: (f: Fixture) => unknown;
      raw?: string;
      type?: string;
      otherwise: number;
    }[] = [
      {
        name: 'an unknown field',
        group: 'snapshots_write',
        method: 'POST',
        url: () => '/v1/snapshots',
        body: () => ({ bogus: true, confidence: 7 }),
        otherwise: 400,
      },
      {
        name: 'malformed JSON',
        group: 'snapshots_write',
        method: 'POST',
        url: () => '/v1/snapshots',
        raw: '{oops',
        type: 'application/json',
        otherwise: 400,
      },
      {
        name: 'a text/plain body',
        group: 'snapshots_write',
        method: 'POST',
        url: () => '/v1/snapshots',
        raw: 'hi',
        type: 'text/plain',
        otherwise: 415,
      },
      {
        name: 'a body over 1 MiB',
        group: 'snapshots_write',
        method: 'POST',
        url: () => '/v1/snapshots',
        raw: JSON.stringify({ name: 'big', core: 'x'.repeat(ONE_MIB) }),
        type: 'application/json',
        otherwise: 413,
      },
      {
        name: 'an empty PUT body',
        group: 'snapshots_write',
        method: 'PUT',
        url: (f) => `/v1/snapshots/${f.snapshotA}`,
        body: () => ({}),
        otherwise: 400,
      },
      {
        name: 'a PUT of a missing snapshot',
        group: 'snapshots_write',
        method: 'PUT',
        url: () => `/v1/snapshots/${newId('snap')}`,
        body: () => ({ name: 'x' }),
        otherwise: 404,
      },
      {
        name: 'limit=abc',
        group: 'snapshots_read',
        method: 'GET',
        url: () => '/v1/snapshots?limit=abc',
        otherwise: 400,
      },
      {
        name: 'a missing snapshot',
        group: 'snapshots_read',
        method: 'GET',
        url: () => `/v1/snapshots/${newId('snap')}`,
        otherwise: 404,
      },
      {
        name: 'an invalid edge_type',
        group: 'edges',
        method: 'POST',
        url: () => '/v1/edges',
        body: (f) => ({ source_id: f.snapshotA, target_id: f.snapshotB, edge_type: 'likes' }),
        otherwise: 400,
      },
      {
        name: 'a duplicate edge',
        group: 'edges',
        method: 'POST',
        url: () => '/v1/edges',
        body: (f) => ({ source_id: f.snapshotA, target_id: f.snapshotB, edge_type: 'elaborates' }),
        otherwise: 409,
      },
      {
        name: 'an edge to itself',
        group: 'edges',
        method: 'POST',
        url: () => '/v1/edges',
        body: (f) => ({ source_id: f.snapshotA, target_id: f.snapshotA, edge_type: 'supports' }),
        otherwise: 422,
      },
      {
        name: 'strength 7 on PUT',
        group: 'edges',
        method: 'PUT',
        url: (f) => `/v1/edges/${f.edgeId}`,
        body: () => ({ strength: 7 }),
        otherwise: 400,
      },
    ];
    for (const c of rejected) {
      it(`${c.group} full: a request with ${c.name} gets 429, not ${c.otherwise}`, async () => {
        const t = freshInstant();
        const key = await freeKey();
        const options = () => ({
          key,
          ...(c.raw !== undefined ? { rawBody: c.raw, headers: { 'content-type': c.type ?? 'application/json' } } : {}),
          ...(c.body !== undefined ? { body: c.body(fixture) } : {}),
        });
        await exhaustBurst(key, c.group);
        const res = await api.request(c.method, c.url(fixture), options());
        assertRateLimited(res, 1, c.name);
        // The same request once the window allows it: its own error, proving the 429 came first.
        clock.set(t + SECOND);
        const later = await api.request(c.method, c.url(fixture), options());
        assert.equal(later.status, c.otherwise, `${c.name} when admitted: ${JSON.stringify(later.body)}`);
      });
    }

    it('a key whose window is full still gets 401 for bad credentials, never 429 (401 first)', async () => {
      freshInstant();
      const key = await freeKey();
      await exhaustBurst(key, 'snapshots_read');
      const credentials: [string, Record<string, string>][] = [
        ['no Authorization header', {}],
        ['a malformed header', { authorization: 'Token abc' }],
        ['an unknown key', { authorization: `Bearer ${UNKNOWN_KEY}` }],
        [
          'the key with one character changed',
          { authorization: `Bearer ${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}` },
        ],
      ];
      for (const [name, headers] of credentials) {
        const res = await from(api, '10.9.0.1', 'GET', '/v1/snapshots', { headers });
        assert.equal(res.status, 401, `${name}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'UNAUTHORIZED', name);
        assert.equal(res.headers['www-authenticate'], 'Bearer', name);
      }
      await revokeApiKey(api.app.domain, key.keyId);
      const revoked = await api.request('GET', '/v1/snapshots', { key });
      assert.equal(revoked.status, 401, 'a revoked key with a full window: 401, not 429');
    });
  });

  describe('enterprise custom limits, changed live', () => {
    it('custom rpm/burst apply to every group, and updateApiKeyLimits takes effect on the next request', async () => {
      const t = freshInstant();
      const key = await api.newKey({ plan: 'enterprise', rpm: 7, burst: 3, brainId: fixture.brainId });
      for (const group of GROUPS) {
        const route = routesOf(group)[0]!;
        for (let i = 1; i <= 3; i++) {
          const res = await send(api, route, key, fixture);
          assertAdmitted(res, `${group} ${i}`);
          assertRateLimitHeaders(res, { limit: 7, remaining: 7 - i, resetAtMs: t + MINUTE });
        }
        assertRateLimited(await send(api, route, key, fixture), 1, `${group} burst 3`);
      }
      const read = routesOf('snapshots_read')[0]!;
      // Raise the burst: the same instant now admits more, up to the minute limit of 7.
      await updateApiKeyLimits(api.app.domain, key.keyId, { burst: 5 });
      for (let i = 4; i <= 5; i++) {
        const res = await send(api, read, key, fixture);
        assertAdmitted(res, `burst raised to 5, request ${i}`);
        assertRateLimitHeaders(res, { limit: 7, remaining: 7 - i });
      }
      assertRateLimited(await send(api, read, key, fixture), 1, 'burst 5 reached');
      // Lower the minute limit below what is already used: refused until the oldest leaves.
      await updateApiKeyLimits(api.app.domain, key.keyId, { rpm: 4, burst: 100 });
      clock.set(t + 5 * SECOND);
      const lowered = await send(api, read, key, fixture);
      assertRateLimited(lowered, 55, 'rpm lowered to 4 with 5 used: wait for 2 to leave at t + 60 s');
      assertRateLimitHeaders(lowered, { limit: 4, remaining: 0, resetAtMs: t + MINUTE });
      // Raise it: admitted at once, counted against the new limit.
      await updateApiKeyLimits(api.app.domain, key.keyId, { rpm: 1000 });
      const raised = await send(api, read, key, fixture);
      assertAdmitted(raised, 'rpm raised to 1000');
      assertRateLimitHeaders(raised, { limit: 1000, remaining: 1000 - 6, resetAtMs: t + 5 * SECOND + MINUTE });
    });

    it('a plan change (free -> pro -> free) changes the limits on the next request', async () => {
      const t = freshInstant();
      const key = await freeKey();
      const read = routesOf('snapshots_read')[0]!;
      await exhaustBurst(key, 'snapshots_read');
      await updateApiKeyLimits(api.app.domain, key.keyId, { plan: 'pro' });
      const pro = await send(api, read, key, fixture);
      assertAdmitted(pro, 'now pro: burst 30');
      assertRateLimitHeaders(pro, { limit: 300, remaining: 300 - 11, resetAtMs: t + MINUTE });
      for (let i = 12; i <= 30; i++) assertAdmitted(await send(api, read, key, fixture), `pro request ${i}`);
      assertRateLimited(await send(api, read, key, fixture), 1, 'pro burst 30 reached');
      await updateApiKeyLimits(api.app.domain, key.keyId, { plan: 'free' });
      const free = await send(api, read, key, fixture);
      assertRateLimited(free, 1, 'free again, 30 used this second: over the free burst of 10');
      assertRateLimitHeaders(free, { limit: 60, remaining: 0, resetAtMs: t + MINUTE });
      clock.set(t + SECOND);
      const later = await send(api, read, key, fixture);
      assertAdmitted(later, 'a second later the free burst allows it (30 of 60 used this minute)');
      assertRateLimitHeaders(later, { limit: 60, remaining: 60 - 31, resetAtMs: t + SECOND + MINUTE });
    });
  });
});

describe('requests without a valid key: limited per client address (anonymous 5/min, 3/s)', () => {
  const clock = manualClock(Date.parse('2026-03-01T00:00:00.000Z') + 600);
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ rateLimits: true, clock, anonymousLimits: { perMinute: 5, perSecond: 3 } });
  });
  after(() => api.close());

  const kinds: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a malformed header', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a key of the wrong shape', { authorization: 'Bearer not-a-key' }],
    ['an unknown well-formed key', { authorization: `Bearer ${UNKNOWN_KEY}` }],
  ];

  for (const [index, [name, headers]] of kinds.entries()) {
    it(`${name}: 401s carry the address's window headers, then 429 after the anonymous limits`, async () => {
      const address = `10.20.${index}.1`;
      const t = clock.now() + 3 * MINUTE;
      clock.set(t);
      for (let i = 1; i <= 3; i++) {
        const res = await from(api, address, 'GET', '/v1/snapshots', { headers });
        assert.equal(res.status, 401, JSON.stringify(res.body));
        assert.equal(res.headers['www-authenticate'], 'Bearer');
        assertRateLimitHeaders(res, { limit: 5, remaining: 5 - i, resetAtMs: t + MINUTE }, `401 #${i}`);
      }
      const burst = await from(api, address, 'POST', '/v1/edges', { headers, body: { bogus: true } });
      assertRateLimited(burst, 1, 'fourth within a second');
      assertRateLimitHeaders(burst, { limit: 5, remaining: 0, resetAtMs: t + MINUTE });
      clock.set(t + SECOND);
      for (let i = 4; i <= 5; i++) {
        const res = await from(api, address, 'DELETE', `/api/v1/snapshots/${newId('snap')}`, { headers });
        assert.equal(res.status, 401);
        assertRateLimitHeaders(res, { limit: 5, remaining: 5 - i, resetAtMs: t + SECOND + MINUTE });
      }
      const minute = await from(api, address, 'GET', '/v1/brains', { headers });
      assertRateLimited(minute, 59, 'sixth within a minute');
      // Another address has its own window.
      const elsewhere = await from(api, `10.21.${index}.1`, 'GET', '/v1/snapshots', { headers });
      assert.equal(elsewhere.status, 401);
      assertRateLimitHeaders(elsewhere, { limit: 5, remaining: 4 });
      clock.set(t + MINUTE);
      const back = await from(api, address, 'GET', '/v1/snapshots', { headers });
      assert.equal(back.status, 401, 'after exactly Retry-After the address may try again');
      assertRateLimitHeaders(back, { limit: 5, remaining: 2 });
    });
  }

  it('requests the router refuses before any hook still get 401 under the address window, then 429', async () => {
    const address = '10.35.0.1';
    const t = clock.now() + 3 * MINUTE;
    clock.set(t);
    const urls = ['/v1/snapshots/snap_%zz', `/api/v1/edges/edge_${'A'.repeat(96)}`, '/v1/snapshots/snap_%E0%A4%A'];
    for (const [i, url] of urls.entries()) {
      const res = await from(api, address, 'GET', url, { key: UNKNOWN_KEY });
      assert.equal(res.status, 401, `${url}: ${JSON.stringify(res.body)}`);
      assertRateLimitHeaders(res, { limit: 5, remaining: 4 - i, resetAtMs: t + MINUTE }, url);
    }
    assertRateLimited(await from(api, address, 'GET', urls[0]!, { key: UNKNOWN_KEY }), 1, 'fourth within a second');
  });

  it('all kinds of bad credentials from one address share one window', async () => {
    const address = '10.30.0.1';
    clock.advance(3 * MINUTE);
    for (let i = 0; i < 3; i++) {
      const res = await from(api, address, 'GET', '/v1/snapshots', { headers: kinds[i]![1] });
      assert.equal(res.status, 401);
      assertRateLimitHeaders(res, { limit: 5, remaining: 4 - i });
    }
    assertRateLimited(await from(api, address, 'GET', '/v1/snapshots', { headers: kinds[3]![1] }), 1);
  });

  it('a valid key from an exhausted address is served under its own limits, and does not use the anonymous window', async () => {
    const address = '10.40.0.1';
    clock.advance(3 * MINUTE);
    const key = await api.newKey({ plan: 'free' });
    for (let i = 0; i < 3; i++) await from(api, address, 'GET', '/v1/snapshots', { key: UNKNOWN_KEY });
    assertRateLimited(await from(api, address, 'GET', '/v1/snapshots', { key: UNKNOWN_KEY }), 1);
    const good = await from(api, address, 'GET', '/v1/snapshots', { key: key.key });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    assertRateLimitHeaders(good, { limit: 60, remaining: 59 });
    clock.advance(SECOND);
    for (let i = 0; i < 5; i++)
      assert.equal((await from(api, address, 'GET', '/v1/snapshots', { key: key.key })).status, 200);
    const anonymous = await from(api, address, 'GET', '/v1/snapshots', { key: UNKNOWN_KEY });
    assert.equal(anonymous.status, 401);
    assertRateLimitHeaders(anonymous, { limit: 5, remaining: 1 }, 'valid-key requests left the anonymous window alone');
  });

  it('public routes (/healthz, /readyz, /v1/openapi.json) are not limited and do not use the window', async () => {
    const address = '10.50.0.1';
    clock.advance(3 * MINUTE);
    for (let i = 0; i < 10; i++) {
      for (const url of ['/healthz', '/readyz', '/v1/openapi.json']) {
        assert.equal((await from(api, address, 'GET', url)).status, 200, url);
      }
    }
    const res = await from(api, address, 'GET', '/v1/snapshots');
    assert.equal(res.status, 401);
    assertRateLimitHeaders(res, { limit: 5, remaining: 4 });
  });
});

describe('requests without a valid key: the default per-address limits (1,000/min, 100/s)', () => {
  const clock = manualClock(Date.parse('2026-04-01T00:00:00.000Z') + 400);
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ rateLimits: true, clock });
  });
  after(() => api.close());

  it('a client checking its error handling gets its 401s, not 429s; the 101st in one second is refused', async () => {
    const address = '10.60.0.1';
    for (let i = 1; i <= 100; i++) {
      const res = await from(api, address, 'GET', i % 2 ? '/v1/snapshots' : '/v1/edges', { key: UNKNOWN_KEY });
      assert.equal(res.status, 401, `request ${i}: ${JSON.stringify(res.body)}`);
      assertRateLimitHeaders(res, { limit: 1000, remaining: 1000 - i }, `401 #${i}`);
    }
    assertRateLimited(await from(api, address, 'GET', '/v1/brains'), 1, 'past the burst of 100');
  });
});
