// Every authenticated route refuses every kind of bad credential with the same 401, before it
// looks at the body (design §3.2; §4.1, §3.7 order of checks, §2.4 keys, §3.1 both prefixes).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { revokeApiKey } from '../../src/domain/keys/index.js';
import { snapshotBody, startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  ODD_IDS,
  ONE_MIB,
  PREFIXES,
  assertErrorBody,
  call,
  jsonOfSize,
  makeFixture,
  readFixture,
  roomyKey,
  unknownKey,
  FIXTURE_TEXT,
  type Fixture,
} from './support.js';
import { testBackend } from '../helpers/database.js';

interface Route {
  method: string;
  /** The route as design §7 names it, for test titles. */
  name: string;
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** The same route asked for wrongly: a bad body, a bad query or an id that names nothing. */
  invalid: (f: Fixture) => { path: string; body?: unknown };
  /** What a valid key gets. */
  ok: number;
}

const routesUnder = (p: string): Route[] => [
  {
    method: 'POST',
    name: `${p}/snapshots`,
    path: () => `${p}/snapshots`,
    body: () => snapshotBody(),
    invalid: () => ({ path: `${p}/snapshots`, body: { bogus: true, confidence: 7 } }),
    ok: 201,
  },
  {
    method: 'GET',
    name: `${p}/snapshots`,
    path: () => `${p}/snapshots`,
    invalid: () => ({ path: `${p}/snapshots?limit=abc` }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/snapshots/:id`,
    path: (f) => `${p}/snapshots/${f.snapshotId}`,
    invalid: () => ({ path: `${p}/snapshots/snap_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'PUT',
    name: `${p}/snapshots/:id`,
    path: (f) => `${p}/snapshots/${f.snapshotId}`,
    body: () => ({ name: 'Renamed' }),
    invalid: (f) => ({ path: `${p}/snapshots/${f.snapshotId}`, body: { confidence: 'high', bogus: 1 } }),
    ok: 200,
  },
  {
    method: 'DELETE',
    name: `${p}/snapshots/:id`,
    path: (f) => `${p}/snapshots/${f.snapshotId}`,
    invalid: () => ({ path: `${p}/snapshots/snap_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'POST',
    name: `${p}/edges`,
    path: () => `${p}/edges`,
    body: (f) => ({ source_id: f.snapshotId, target_id: f.otherSnapshotId, edge_type: 'contradicts' }),
    invalid: () => ({ path: `${p}/edges`, body: { edge_type: 'loves' } }),
    ok: 201,
  },
  {
    method: 'GET',
    name: `${p}/edges`,
    path: (f) => `${p}/edges?brain_id=${f.brainId}`,
    // Neither snapshot_id nor brain_id: a 400 for a valid key.
    invalid: () => ({ path: `${p}/edges?limit=abc` }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/edges/:id`,
    path: (f) => `${p}/edges/${f.edgeId}`,
    invalid: () => ({ path: `${p}/edges/edge_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'PUT',
    name: `${p}/edges/:id`,
    path: (f) => `${p}/edges/${f.edgeId}`,
    body: () => ({ strength: 0.9 }),
    invalid: (f) => ({ path: `${p}/edges/${f.edgeId}`, body: { strength: 5 } }),
    ok: 200,
  },
  {
    method: 'DELETE',
    name: `${p}/edges/:id`,
    path: (f) => `${p}/edges/${f.edgeId}`,
    invalid: () => ({ path: `${p}/edges/edge_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'POST',
    name: `${p}/brains`,
    path: () => `${p}/brains`,
    body: () => ({ name: 'Another brain' }),
    invalid: () => ({ path: `${p}/brains`, body: { title: 42 } }),
    ok: 201,
  },
  {
    method: 'GET',
    name: `${p}/brains`,
    path: () => `${p}/brains`,
    invalid: () => ({ path: `${p}/brains?limit=0` }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/brains/:id`,
    path: (f) => `${p}/brains/${f.extraBrainId}`,
    invalid: () => ({ path: `${p}/brains/brain_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'PUT',
    name: `${p}/brains/:id`,
    path: (f) => `${p}/brains/${f.extraBrainId}`,
    body: () => ({ auto_link: true }),
    invalid: (f) => ({ path: `${p}/brains/${f.extraBrainId}`, body: { auto_link: 'yes' } }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/snapshots/search`,
    path: (f) => `${p}/snapshots/search?q=anything&brain_id=${f.brainId}`,
    invalid: () => ({ path: `${p}/snapshots/search?q=x&limit=0` }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/snapshots/:id/suggestions`,
    path: (f) => `${p}/snapshots/${f.snapshotId}/suggestions`,
    invalid: (f) => ({ path: `${p}/snapshots/${f.snapshotId}/suggestions?limit=0` }),
    ok: 200,
  },
  {
    method: 'POST',
    name: `${p}/crystallize`,
    path: () => `${p}/crystallize`,
    body: () => ({ text: FIXTURE_TEXT }),
    invalid: () => ({ path: `${p}/crystallize`, body: { text: 'too short' } }),
    ok: 201,
  },
  {
    method: 'GET',
    name: `${p}/crystallize/:run_id`,
    path: (f) => `${p}/crystallize/${f.runId}`,
    invalid: () => ({ path: `${p}/crystallize/cry_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/captures`,
    path: () => `${p}/captures`,
    invalid: () => ({ path: `${p}/captures?limit=0` }),
    ok: 200,
  },
  {
    method: 'POST',
    name: `${p}/captures/:id/accept`,
    path: (f) => `${p}/captures/${f.captureId}/accept`,
    invalid: () => ({ path: `${p}/captures/cap_does_not_exist/accept` }),
    ok: 201,
  },
  {
    method: 'POST',
    name: `${p}/captures/:id/reject`,
    path: (f) => `${p}/captures/${f.captureId}/reject`,
    invalid: () => ({ path: `${p}/captures/cap_does_not_exist/reject` }),
    ok: 200,
  },
  {
    method: 'POST',
    name: `${p}/specific-knowledge/ingest`,
    path: () => `${p}/specific-knowledge/ingest`,
    body: () => ({ source_type: 'manual', title: 'Notes', content: FIXTURE_TEXT }),
    invalid: () => ({ path: `${p}/specific-knowledge/ingest`, body: { source_type: 'blog' } }),
    ok: 201,
  },
  {
    method: 'POST',
    name: `${p}/specific-knowledge/search`,
    path: () => `${p}/specific-knowledge/search`,
    body: () => ({ query: 'test' }),
    invalid: () => ({ path: `${p}/specific-knowledge/search`, body: { query: '' } }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/specific-knowledge/sources`,
    path: () => `${p}/specific-knowledge/sources`,
    invalid: () => ({ path: `${p}/specific-knowledge/sources?offset=-1` }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/specific-knowledge/sources/:id`,
    path: (f) => `${p}/specific-knowledge/sources/${f.sourceId}`,
    invalid: () => ({ path: `${p}/specific-knowledge/sources/src_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'DELETE',
    name: `${p}/specific-knowledge/sources/:id`,
    path: (f) => `${p}/specific-knowledge/sources/${f.sourceId}`,
    invalid: () => ({ path: `${p}/specific-knowledge/sources/src_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/specific-knowledge/entries/:id`,
    path: (f) => `${p}/specific-knowledge/entries/${f.entryId}`,
    invalid: () => ({ path: `${p}/specific-knowledge/entries/ske_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'PUT',
    name: `${p}/specific-knowledge/entries/:id`,
    path: (f) => `${p}/specific-knowledge/entries/${f.entryId}`,
    body: () => ({ mastery: 0.5 }),
    invalid: (f) => ({ path: `${p}/specific-knowledge/entries/${f.entryId}`, body: { mastery: 2 } }),
    ok: 200,
  },
  {
    method: 'POST',
    name: `${p}/memories`,
    path: () => `${p}/memories`,
    body: () => ({ content: 'Deploys go out on Tuesdays' }),
    invalid: () => ({ path: `${p}/memories`, body: { content: '', bogus: true } }),
    ok: 201,
  },
  {
    method: 'POST',
    name: `${p}/memories/remember`,
    path: () => `${p}/memories/remember`,
    body: () => ({ content: 'Deploys go out on Tuesdays' }),
    invalid: () => ({ path: `${p}/memories/remember`, body: { memory_type: 'opinion' } }),
    ok: 201,
  },
  {
    method: 'GET',
    name: `${p}/memories`,
    path: () => `${p}/memories`,
    invalid: () => ({ path: `${p}/memories?limit=abc` }),
    ok: 200,
  },
  {
    method: 'POST',
    name: `${p}/memories/search`,
    path: () => `${p}/memories/search`,
    body: () => ({ query: 'deploys' }),
    invalid: () => ({ path: `${p}/memories/search`, body: { query: '' } }),
    ok: 200,
  },
  {
    method: 'GET',
    name: `${p}/memories/:id`,
    path: (f) => `${p}/memories/${f.memoryId}`,
    invalid: () => ({ path: `${p}/memories/mem_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'PUT',
    name: `${p}/memories/:id`,
    path: (f) => `${p}/memories/${f.memoryId}`,
    body: () => ({ memory_type: 'decision' }),
    invalid: (f) => ({ path: `${p}/memories/${f.memoryId}`, body: { emotional_valence: 3 } }),
    ok: 200,
  },
  {
    method: 'DELETE',
    name: `${p}/memories/:id`,
    path: (f) => `${p}/memories/${f.memoryId}`,
    invalid: () => ({ path: `${p}/memories/mem_does_not_exist` }),
    ok: 200,
  },
  {
    method: 'POST',
    name: `${p}/memories/:id/crystallize`,
    path: (f) => `${p}/memories/${f.memoryId}/crystallize`,
    body: () => ({ auto_link: false }),
    invalid: (f) => ({ path: `${p}/memories/${f.memoryId}/crystallize`, body: { auto_link: 'no' } }),
    ok: 201,
  },
  {
    method: 'POST',
    name: `${p}/ingest`,
    path: () => `${p}/ingest`,
    body: () => ({ content: 'Deploys go out on Tuesdays, after the review meeting.', auto_link: false }),
    invalid: () => ({ path: `${p}/ingest`, body: { content: 'short' } }),
    ok: 201,
  },
];

const ROUTES: Route[] = PREFIXES.flatMap(routesUnder);

/** Ways to send no valid key; `authorization: undefined` sends no header at all. */
interface Credential {
  name: string;
  authorization: (ctx: { validKey: string; revokedKey: string }) => string | undefined;
}

const CREDENTIALS: Credential[] = [
  { name: 'no Authorization header', authorization: () => undefined },
  { name: 'an empty Authorization header', authorization: () => '' },
  { name: 'Basic credentials', authorization: () => `Basic ${Buffer.from('user:password').toString('base64')}` },
  {
    name: 'a valid key under the Basic scheme',
    authorization: ({ validKey }) => `Basic ${Buffer.from(`${validKey}:`).toString('base64')}`,
  },
  { name: 'a valid key without a scheme', authorization: ({ validKey }) => validKey },
  { name: '"Bearer" with nothing after it', authorization: () => 'Bearer' },
  { name: '"Bearer " with only a space after it', authorization: () => 'Bearer ' },
  { name: 'a malformed key', authorization: () => 'Bearer not-a-snapgraph-key' },
  { name: 'a truncated key', authorization: ({ validKey }) => `Bearer ${validKey.slice(0, 20)}` },
  { name: 'a well-formed unknown key', authorization: () => `Bearer ${unknownKey()}` },
  { name: 'a revoked key', authorization: ({ revokedKey }) => `Bearer ${revokedKey}` },
];

function withAuthorization(authorization: string | undefined, headers: Record<string, string> = {}) {
  return authorization === undefined ? headers : { ...headers, authorization };
}

function assertUnauthorized(response: Awaited<ReturnType<typeof call>>, context: string): void {
  assertErrorBody(response, 401, 'UNAUTHORIZED', context);
  const challenge = response.headers['www-authenticate'];
  assert.equal(typeof challenge, 'string', `${context}: WWW-Authenticate header present`);
  assert.match(String(challenge), /^Bearer\b/, `${context}: WWW-Authenticate starts with Bearer`);
}

// Every route against every bad credential is the routes' own check, the same on either store
// (a key's look-up on PostgreSQL is tested in scale-out/ and ratelimit/): the SQLite pass runs it.
describe(
  'auth matrix: every authenticated route answers 401 to every bad credential',
  { skip: testBackend !== 'sqlite' },
  () => {
    let api: TestApi;
    let owner: TestKey;
    let revoked: TestKey;
    let fixture: Fixture;
    let before401: Record<string, unknown>;
    let ctx: { validKey: string; revokedKey: string };

    before(async () => {
      api = await startTestApi();
      owner = await roomyKey(api);
      fixture = await makeFixture(api, owner);
      // A second key of the same account that worked until it was revoked: revocation is what
      // turns it away, not a missing account.
      revoked = await roomyKey(api, owner.brainId);
      const works = await call(api, 'GET', `/v1/snapshots/${fixture.snapshotId}`, { key: revoked });
      assert.equal(works.status, 200, 'the key works before it is revoked');
      await revokeApiKey(api.app.domain, revoked.keyId);
      ctx = { validKey: owner.key, revokedKey: revoked.key };
      before401 = await readFixture(api, owner, fixture);
    });
    after(() => api.close());

    for (const route of ROUTES) {
      describe(`${route.method} ${route.name}`, () => {
        for (const credential of CREDENTIALS) {
          it(`${credential.name} -> 401 UNAUTHORIZED with WWW-Authenticate: Bearer`, async () => {
            const body = route.body?.(fixture);
            const response = await call(api, route.method, route.path(fixture), {
              headers: withAuthorization(credential.authorization(ctx)),
              ...(body !== undefined ? { body } : {}),
            });
            assertUnauthorized(response, `${route.method} ${route.name} with ${credential.name}`);
          });
        }

        // 401 comes before 413, 415 and 400 (design §3.7), for a missing key and a wrong one alike.
        for (const [who, authorization] of [
          ['no key', () => undefined],
          ['an unknown key', () => `Bearer ${unknownKey()}`],
        ] as const) {
          const unauthenticated: { name: string; send: () => Promise<Awaited<ReturnType<typeof call>>> }[] = [
            {
              name: 'an invalid body, query or id',
              send: () => {
                const invalid = route.invalid(fixture);
                return call(api, route.method, invalid.path, {
                  headers: withAuthorization(authorization()),
                  ...(invalid.body !== undefined ? { body: invalid.body } : {}),
                });
              },
            },
            {
              name: 'a text/plain body',
              send: () =>
                call(api, route.method, route.path(fixture), {
                  rawBody: 'name=Compounding',
                  headers: withAuthorization(authorization(), { 'content-type': 'text/plain' }),
                }),
            },
            {
              name: 'malformed JSON',
              send: () =>
                call(api, route.method, route.path(fixture), {
                  rawBody: '{"name": "Compounding",',
                  headers: withAuthorization(authorization(), { 'content-type': 'application/json' }),
                }),
            },
            {
              name: 'a body over 1 MiB',
              send: () =>
                call(api, route.method, route.path(fixture), {
                  rawBody: jsonOfSize(ONE_MIB + 1024),
                  headers: withAuthorization(authorization(), { 'content-type': 'application/json' }),
                }),
            },
          ];
          for (const variant of unauthenticated) {
            it(`${who} and ${variant.name} -> still 401`, async () => {
              assertUnauthorized(await variant.send(), `${route.method} ${route.name}, ${who}, ${variant.name}`);
            });
          }
        }
      });
    }

    // An id the router balks at (too long, badly escaped) is still on an API path: the caller
    // learns nothing before authenticating, and gets the same 401 body and headers.
    for (const route of ROUTES.filter((r) => r.name.endsWith('/:id'))) {
      for (const [what, id] of ODD_IDS) {
        it(`${route.method} ${route.name} with ${what} and no key -> 401`, async () => {
          const body = route.body?.(fixture);
          const path = route.path({
            ...fixture,
            snapshotId: id,
            edgeId: id,
            extraBrainId: id,
            runId: id,
            captureId: id,
            sourceId: id,
            entryId: id,
            memoryId: id,
          });
          const response = await call(api, route.method, path, body !== undefined ? { body } : {});
          assertUnauthorized(response, `${route.method} ${path.slice(0, 60)}`);
        });
      }
    }

    it('none of those requests changed anything', async () => {
      assert.deepEqual(await readFixture(api, owner, fixture), before401);
    });

    // The control: each route of the matrix does answer a valid key, so its 401s mean something.
    for (const route of ROUTES) {
      it(`control: ${route.method} ${route.name} with a valid key -> ${route.ok}`, async () => {
        const key = await roomyKey(api);
        const fresh = await makeFixture(api, key);
        const body = route.body?.(fresh);
        const response = await call(api, route.method, route.path(fresh), {
          key,
          ...(body !== undefined ? { body } : {}),
        });
        assert.equal(response.status, route.ok, JSON.stringify(response.body));
        assert.equal(response.headers['www-authenticate'], undefined);
      });
    }

    it('control: the Bearer scheme is case-insensitive (RFC 9110 11.1)', async () => {
      const response = await call(api, 'GET', `/v1/snapshots/${fixture.snapshotId}`, {
        headers: { authorization: `bearer ${owner.key}` },
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
    });
  },
);
