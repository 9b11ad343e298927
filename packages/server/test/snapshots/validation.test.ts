// POST /v1/snapshots validation (design §3.4): one table row per rule, boundaries on both sides,
// normalisation (trimming, tag clean-up) and the body-level errors (415, 400 INVALID_JSON, 413).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  assertError,
  createSnapshot,
  getSnapshot,
  LONG_TEXT_FIELDS,
  newKey,
  problemFields,
  SNAPSHOT_TYPES,
} from './fixtures.js';

const base = { name: 'Valid name', core: 'Valid core' };
const without = (field: keyof typeof base) => Object.fromEntries(Object.entries(base).filter(([k]) => k !== field));
const chars = (n: number, c = 'x') => c.repeat(n);
/** An emotion object whose compact JSON is exactly `bytes` bytes long. */
const emotionOfBytes = (bytes: number) => {
  const overhead = JSON.stringify({ note: '' }).length;
  const emotion = { note: chars(bytes - overhead, 'e') };
  assert.equal(Buffer.byteLength(JSON.stringify(emotion)), bytes);
  return emotion;
};

interface Rejection {
  rule: string;
  body: Record<string, unknown>;
  field: string | RegExp;
}

const rejections: Rejection[] = [
  // name
  { rule: 'name missing', body: without('name'), field: 'name' },
  { rule: 'name empty', body: { ...base, name: '' }, field: 'name' },
  { rule: 'name whitespace only', body: { ...base, name: ' \t\n ' }, field: 'name' },
  { rule: 'name 201 characters', body: { ...base, name: chars(201) }, field: 'name' },
  { rule: 'name 201 characters inside spaces', body: { ...base, name: `  ${chars(201)}  ` }, field: 'name' },
  { rule: 'name null', body: { ...base, name: null }, field: 'name' },
  { rule: 'name a number', body: { ...base, name: 42 }, field: 'name' },
  { rule: 'name an array', body: { ...base, name: ['a'] }, field: 'name' },
  // core
  { rule: 'core missing', body: without('core'), field: 'core' },
  { rule: 'core empty', body: { ...base, core: '' }, field: 'core' },
  { rule: 'core whitespace only', body: { ...base, core: '   ' }, field: 'core' },
  { rule: 'core 10,001 characters', body: { ...base, core: chars(10_001) }, field: 'core' },
  { rule: 'core null', body: { ...base, core: null }, field: 'core' },
  { rule: 'core an object', body: { ...base, core: { text: 'x' } }, field: 'core' },
  // optional text fields
  { rule: 'one_liner 501 characters', body: { ...base, one_liner: chars(501) }, field: 'one_liner' },
  ...LONG_TEXT_FIELDS.map((field) => ({
    rule: `${field} 20,001 characters`,
    body: { ...base, [field]: chars(20_001) },
    field,
  })),
  { rule: 'story a number', body: { ...base, story: 7 }, field: 'story' },
  { rule: 'proof a boolean', body: { ...base, proof: true }, field: 'proof' },
  // type
  { rule: 'type lower-case', body: { ...base, type: 'belief' }, field: 'type' },
  { rule: 'type unknown', body: { ...base, type: 'Opinion' }, field: 'type' },
  { rule: 'type empty', body: { ...base, type: '' }, field: 'type' },
  { rule: 'type null', body: { ...base, type: null }, field: 'type' },
  { rule: 'type a number', body: { ...base, type: 1 }, field: 'type' },
  // confidence and significance_score
  ...(['confidence', 'significance_score'] as const).flatMap((field) => [
    { rule: `${field} -0.01`, body: { ...base, [field]: -0.01 }, field },
    { rule: `${field} 1.01`, body: { ...base, [field]: 1.01 }, field },
    { rule: `${field} "0.5" (a string is not coerced)`, body: { ...base, [field]: '0.5' }, field },
    { rule: `${field} null`, body: { ...base, [field]: null }, field },
    { rule: `${field} a boolean`, body: { ...base, [field]: true }, field },
    { rule: `${field} 100 (a percentage)`, body: { ...base, [field]: 100 }, field },
  ]),
  // unknown and read-only fields
  { rule: 'unknown field foo', body: { ...base, foo: 'bar' }, field: 'foo' },
  { rule: 'unknown field Name (case matters)', body: { ...base, Name: 'x' }, field: 'Name' },
  { rule: 'unknown field account_id', body: { ...base, account_id: 'acct_x' }, field: 'account_id' },
  { rule: 'read-only id', body: { ...base, id: 'snap_01JABCDEFGHJKMNPQRSTVWXYZ0' }, field: 'id' },
  { rule: 'read-only source_type, even "manual"', body: { ...base, source_type: 'manual' }, field: 'source_type' },
  { rule: 'read-only source_type crystallize', body: { ...base, source_type: 'crystallize' }, field: 'source_type' },
  { rule: 'read-only source_id, even null', body: { ...base, source_id: null }, field: 'source_id' },
  { rule: 'read-only source_id', body: { ...base, source_id: 'cry_x' }, field: 'source_id' },
  { rule: 'read-only created_at', body: { ...base, created_at: '2026-01-01T00:00:00.000Z' }, field: 'created_at' },
  { rule: 'read-only updated_at', body: { ...base, updated_at: '2026-01-01T00:00:00.000Z' }, field: 'updated_at' },
  // brain_id of the wrong type
  { rule: 'brain_id a number', body: { ...base, brain_id: 5 }, field: 'brain_id' },
  // tags
  {
    rule: 'tags with 51 items',
    body: { ...base, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) },
    field: /^tags(\[\d+\])?$/,
  },
  { rule: 'a tag of 65 characters', body: { ...base, tags: ['ok', chars(65)] }, field: /^tags(\[1\])?$/ },
  { rule: 'an empty tag', body: { ...base, tags: [''] }, field: /^tags(\[0\])?$/ },
  { rule: 'a whitespace-only tag', body: { ...base, tags: ['fine', '   '] }, field: /^tags(\[1\])?$/ },
  { rule: 'a number as a tag', body: { ...base, tags: ['fine', 3] }, field: /^tags(\[1\])?$/ },
  { rule: 'null as a tag', body: { ...base, tags: [null] }, field: /^tags(\[0\])?$/ },
  { rule: 'tags a string', body: { ...base, tags: 'a,b' }, field: 'tags' },
  { rule: 'tags an object', body: { ...base, tags: { a: 1 } }, field: 'tags' },
  // emotion
  { rule: 'emotion an array', body: { ...base, emotion: [{ primary: 'joy' }] }, field: 'emotion' },
  { rule: 'emotion a string', body: { ...base, emotion: 'joy' }, field: 'emotion' },
  { rule: 'emotion a number', body: { ...base, emotion: 0.5 }, field: 'emotion' },
  { rule: 'emotion over 4 KiB (4,097 bytes)', body: { ...base, emotion: emotionOfBytes(4097) }, field: 'emotion' },
  { rule: 'emotion far over 4 KiB', body: { ...base, emotion: emotionOfBytes(50_000) }, field: 'emotion' },
];

describe('POST /v1/snapshots: each rule violated answers 400 BAD_REQUEST naming the field', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
  });
  after(() => api.close());

  for (const { rule, body, field } of rejections) {
    it(rule, async () => {
      const res = await api.request('POST', '/v1/snapshots', { key, body });
      assertError(res, 400, 'BAD_REQUEST', field);
    });
  }

  it('lists the allowed values when type is outside the enumeration', async () => {
    const res = await api.request('POST', '/v1/snapshots', { key, body: { ...base, type: 'Opinion' } });
    assertError(res, 400, 'BAD_REQUEST', 'type');
    for (const type of SNAPSHOT_TYPES) {
      assert.ok(res.body.error.message.includes(type), `message lists ${type}: ${res.body.error.message}`);
      assert.ok(res.body.error.details.reason.includes(type), `reason lists ${type}: ${res.body.error.details.reason}`);
    }
  });

  it('stored nothing for any rejected request', async () => {
    const list = await api.request('GET', '/v1/snapshots', { key });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, { data: [], count: 0 });
  });
});

describe('POST /v1/snapshots: several problems at once are all listed', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
  });
  after(() => api.close());

  const cases: [string, Record<string, unknown>, string[]][] = [
    [
      'schema-level problems (missing core, bad type, confidence out of range, unknown field)',
      { name: 'ok', type: 'Opinion', confidence: 2, foo: 1 },
      ['confidence', 'core', 'foo', 'type'],
    ],
    [
      'length and tag problems (name too long, a tag too long, emotion too large)',
      { core: 'ok', name: chars(201), tags: [chars(65)], emotion: emotionOfBytes(5000) },
      ['emotion', 'name', 'tags'],
    ],
    [
      'a whitespace-only name together with an out-of-range confidence and an unknown field',
      { name: '   ', core: 'ok', confidence: 1.5, foo: 'bar' },
      ['confidence', 'foo', 'name'],
    ],
    ['a too-long name together with a missing core', { name: chars(300) }, ['core', 'name']],
  ];
  for (const [label, body, fields] of cases) {
    it(label, async () => {
      const res = await api.request('POST', '/v1/snapshots', { key, body });
      assertError(res, 400, 'BAD_REQUEST', new RegExp(`^(${fields.join('|')})`));
      const listed = [...new Set(problemFields(res).map((field) => field.replace(/\[\d+\]$/, '')))].sort();
      assert.deepEqual(listed, fields, JSON.stringify(res.body.error.details));
    });
  }
});

describe('POST /v1/snapshots: boundaries that are accepted, and normalisation', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
  });
  after(() => api.close());

  const accepted: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['name of 1 character', { name: 'a' }, { name: 'a' }],
    ['name of 200 characters', { name: chars(200) }, { name: chars(200) }],
    [
      'name of 200 characters padded with spaces (counted after trimming, stored trimmed)',
      { name: `   ${chars(200)}   ` },
      { name: chars(200) },
    ],
    ['name with surrounding whitespace is stored trimmed', { name: ' \t Trim me \n ' }, { name: 'Trim me' }],
    ['name with inner spaces keeps them', { name: '  two  words  ' }, { name: 'two  words' }],
    ['core of 10,000 characters', { core: chars(10_000) }, { core: chars(10_000) }],
    ['one_liner of 500 characters', { one_liner: chars(500) }, { one_liner: chars(500) }],
    ...LONG_TEXT_FIELDS.map((field): [string, Record<string, unknown>, Record<string, unknown>] => [
      `${field} of 20,000 characters`,
      { [field]: chars(20_000) },
      { [field]: chars(20_000) },
    ]),
    ['one_liner empty string', { one_liner: '' }, { one_liner: '' }],
    [
      'tags: 50 items',
      { tags: Array.from({ length: 50 }, (_, i) => `t${i}`) },
      { tags: Array.from({ length: 50 }, (_, i) => `t${i}`) },
    ],
    ['tags: a tag of 64 characters', { tags: [chars(64)] }, { tags: [chars(64)] }],
    ['tags: a tag of 64 characters padded with spaces', { tags: [`  ${chars(64)}  `] }, { tags: [chars(64)] }],
    ['tags are trimmed and duplicates dropped keeping the first', { tags: [' a', 'a', 'b'] }, { tags: ['a', 'b'] }],
    ['tags: the first occurrence keeps its place', { tags: ['b', 'a', ' b ', 'c', 'a'] }, { tags: ['b', 'a', 'c'] }],
    ['emotion of exactly 4 KiB', { emotion: emotionOfBytes(4096) }, { emotion: emotionOfBytes(4096) }],
  ];
  for (const [label, fields, expected] of accepted) {
    it(`accepts ${label}`, async () => {
      const created = await createSnapshot(api, key, { ...base, ...fields });
      const read = await getSnapshot(api, key, created.id);
      for (const [field, value] of Object.entries(expected)) {
        assert.deepEqual(created[field], value, `${field} as returned`);
        assert.deepEqual(read[field], value, `${field} as stored`);
      }
    });
  }
});

describe('POST /v1/snapshots: the request body itself', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
  });
  after(() => api.close());

  const json = JSON.stringify(base);
  const mediaTypes: [string, Record<string, string>][] = [
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['multipart/form-data', { 'content-type': 'multipart/form-data; boundary=x' }],
    ['application/xml', { 'content-type': 'application/xml' }],
    ['no content type at all', {}],
  ];
  for (const [label, headers] of mediaTypes) {
    it(`a JSON text sent as ${label} is 415 UNSUPPORTED_MEDIA_TYPE`, async () => {
      const res = await api.request('POST', '/v1/snapshots', { key, rawBody: json, headers });
      assertError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  }

  const malformed: [string, string][] = [
    ['a truncated object', '{"name": "a", "core": '],
    ['unquoted keys', '{name: "a", core: "b"}'],
    ['a trailing comma', '{"name": "a", "core": "b",}'],
    ['single quotes', "{'name': 'a', 'core': 'b'}"],
    ['plain text', 'hello'],
  ];
  for (const [label, rawBody] of malformed) {
    it(`malformed JSON (${label}) is 400 INVALID_JSON`, async () => {
      const res = await api.request('POST', '/v1/snapshots', {
        key,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      assertError(res, 400, 'INVALID_JSON');
    });
  }

  const notAnObject: [string, string][] = [
    ['a JSON array', JSON.stringify([base])],
    ['an empty JSON array', '[]'],
    ['JSON null', 'null'],
    ['a JSON string', '"name"'],
    ['a JSON number', '42'],
  ];
  for (const [label, rawBody] of notAnObject) {
    it(`a body that is ${label} is 400 BAD_REQUEST`, async () => {
      const res = await api.request('POST', '/v1/snapshots', {
        key,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      assertError(res, 400, 'BAD_REQUEST');
    });
  }

  it('a missing body is 400 BAD_REQUEST', async () => {
    assertError(await api.request('POST', '/v1/snapshots', { key }), 400, 'BAD_REQUEST');
    const empty = await api.request('POST', '/v1/snapshots', {
      key,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    assertError(empty, 400, 'BAD_REQUEST');
  });

  it('an empty object is 400 BAD_REQUEST naming name and core', async () => {
    const res = await api.request('POST', '/v1/snapshots', { key, body: {} });
    assertError(res, 400, 'BAD_REQUEST', /^(name|core)$/);
    assert.deepEqual(problemFields(res).sort(), ['core', 'name']);
  });

  it('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE', async () => {
    const rawBody = JSON.stringify({ ...base, story: chars(1024 * 1024 + 10) });
    const res = await api.request('POST', '/v1/snapshots', {
      key,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a body of exactly 1 MiB is read (padding whitespace), one byte more is 413', async () => {
    const json = JSON.stringify({ name: 'Exactly one MiB', core: 'padded' });
    const exact = json + ' '.repeat(1024 * 1024 - json.length);
    assert.equal(Buffer.byteLength(exact), 1024 * 1024);
    const headers = { 'content-type': 'application/json' };
    const ok = await api.request('POST', '/v1/snapshots', { key, rawBody: exact, headers });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.data.name, 'Exactly one MiB');
    const over = await api.request('POST', '/v1/snapshots', { key, rawBody: `${exact} `, headers });
    assertError(over, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a refused body stored nothing', async () => {
    const list = await api.request('GET', '/v1/snapshots', { key });
    assert.equal(list.body.count, 1); // only the exactly-1-MiB one
    assert.equal(list.body.data[0].name, 'Exactly one MiB');
  });
});

describe('POST/PUT /v1/snapshots: when several things are wrong, the first in the order of design §3.7 answers', () => {
  let api: TestApi;
  let key: TestKey;
  let other: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await newKey(api);
    other = await newKey(api);
  });
  after(() => api.close());

  const json = { 'content-type': 'application/json' };
  it('no key beats a malformed, an oversized and a non-JSON body: 401', async () => {
    const bodies: { rawBody: string; headers: Record<string, string> }[] = [
      { rawBody: '{', headers: json },
      { rawBody: JSON.stringify({ ...base, story: chars(2 * 1024 * 1024) }), headers: json },
      { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { rawBody: JSON.stringify({ foo: 1 }), headers: json },
    ];
    for (const options of bodies) {
      assertError(await api.request('POST', '/v1/snapshots', options), 401, 'UNAUTHORIZED');
    }
  });

  it("an invalid body beats another account's brain_id: 400, not 404", async () => {
    const res = await api.request('POST', '/v1/snapshots', {
      key,
      body: { ...base, confidence: 5, brain_id: other.brainId },
    });
    assertError(res, 400, 'BAD_REQUEST', 'confidence');
  });

  it('an invalid body beats an unknown snapshot id on PUT: 400, not 404', async () => {
    const res = await api.request('PUT', '/v1/snapshots/snap_01JZZZZZZZZZZZZZZZZZZZZZZZ', {
      key,
      body: { confidence: 5 },
    });
    assertError(res, 400, 'BAD_REQUEST', 'confidence');
  });
});
