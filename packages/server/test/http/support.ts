// Shared pieces of the HTTP integration tests: the error-body contract (design §4.1), a request
// helper that gives every request its own client address, roomy keys and small fixtures.
import assert from 'node:assert/strict';
import { newId } from '../../src/ids.js';
import { snapshotBody, type ApiResponse, type TestApi, type TestKey } from '../helpers/harness.js';

export const PREFIXES = ['/v1', '/api/v1'] as const;
export const ONE_MIB = 1024 * 1024;

export interface CallOptions {
  key?: TestKey | string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

let addressCounter = 0;

/**
 * Like the harness's `api.request`, but each call comes from a fresh client address: requests
 * without a valid key are rate limited per address (design §5.6), and these matrices send
 * hundreds of them on purpose. Keys made by `roomyKey` keep keyed traffic clear of limits.
 */
export async function call(api: TestApi, method: string, url: string, options: CallOptions = {}): Promise<ApiResponse> {
  addressCounter += 1;
  const remoteAddress = `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${typeof options.key === 'string' ? options.key : options.key.key}`;
  let payload: string | undefined;
  if (options.rawBody !== undefined) payload = options.rawBody;
  else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const raw = await api.app.inject({
    method: method as 'GET',
    url,
    headers,
    remoteAddress,
    ...(payload !== undefined ? { payload } : {}),
  });
  let body: unknown = raw.body;
  try {
    body = raw.body === '' ? undefined : JSON.parse(raw.body);
  } catch {
    // not JSON: keep the text
  }
  return { status: raw.statusCode, headers: raw.headers, body, raw };
}

/** A key with its own account and brain whose limits no test here comes near. */
export function roomyKey(api: TestApi, brainId?: string): Promise<TestKey> {
  return api.newKey({ plan: 'enterprise', rpm: 1_000_000, burst: 100_000, ...(brainId ? { brainId } : {}) });
}

/** A well-formed id of the given kind that names nothing. */
export function missingId(prefix: 'snap' | 'edge' | 'brain' | 'cry' | 'cap' | 'src' | 'ske' | 'mem'): string {
  return newId(prefix);
}

/**
 * Ids the router itself may balk at: longer than its default parameter limit (100), or with a
 * broken percent-escape. They are still paths of the API and get its answers.
 */
export const ODD_IDS: [string, string][] = [
  ['a 101-character id', `snap_${'A'.repeat(96)}`],
  ['a 1000-character id', 'x'.repeat(1000)],
  ['an id with a truncated percent-escape', 'snap_%E0%A4%A'],
  ['an id with an invalid percent-escape', 'snap_%zz'],
];

/** `sg_` and 40 base62 characters: shaped like a key, issued to nobody. */
export function unknownKey(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = 'sg_';
  for (let i = 0; i < 40; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  return out;
}

/** A JSON object body of exactly `bytes` bytes. */
export function jsonOfSize(bytes: number): string {
  const shell = JSON.stringify({ name: 'Big', core: '' });
  const text = JSON.stringify({ name: 'Big', core: 'x'.repeat(bytes - shell.length) });
  assert.equal(Buffer.byteLength(text), bytes);
  return text;
}

const STACK_TRACE = /\n\s+at\s|\bat .+\(.+:\d+:\d+\)|node_modules|\/src\/|\.[cm]?[jt]s:\d+/;

/**
 * The one error body of design §4.1: `{ error: { code, message, details? }, request_id }` (plus
 * `retry_after` on a 429 only), with the request id of the `X-Request-Id` header and no stack.
 */
export function assertErrorBody(response: ApiResponse, status: number, code: string, context = ''): void {
  const where = `${context}${context ? ': ' : ''}${JSON.stringify(response.body)}`;
  assert.equal(response.status, status, `status (${where})`);
  assert.match(String(response.headers['content-type']), /^application\/json/, `content type (${where})`);
  const body = response.body as Record<string, unknown>;
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `body is an object (${where})`);
  const allowedTop = status === 429 ? ['error', 'request_id', 'retry_after'] : ['error', 'request_id'];
  for (const field of Object.keys(body))
    assert.ok(allowedTop.includes(field), `unexpected top-level ${field} (${where})`);
  assert.equal(typeof body.request_id, 'string', `request_id is a string (${where})`);
  assert.notEqual(body.request_id, '', `request_id is not empty (${where})`);
  assert.equal(body.request_id, response.headers['x-request-id'], `request_id equals X-Request-Id (${where})`);
  const error = body.error as Record<string, unknown>;
  assert.ok(error !== null && typeof error === 'object' && !Array.isArray(error), `error is an object (${where})`);
  for (const field of Object.keys(error)) {
    assert.ok(['code', 'message', 'details'].includes(field), `unexpected error.${field} (${where})`);
  }
  assert.equal(error.code, code, `error.code (${where})`);
  assert.match(String(error.code), /^[A-Z][A-Z_]*$/, `error.code is upper-case (${where})`);
  assert.equal(typeof error.message, 'string', `error.message is a string (${where})`);
  assert.notEqual(error.message, '', `error.message is not empty (${where})`);
  if ('details' in error) {
    const details = error.details;
    assert.ok(details !== null && typeof details === 'object' && !Array.isArray(details), `details (${where})`);
  }
  assert.doesNotMatch(response.raw.body, STACK_TRACE, `no stack trace (${where})`);
}

/** Two snapshots of the key's default brain, an edge between them, a second brain and a memory. */
export interface Fixture {
  brainId: string;
  extraBrainId: string;
  snapshotId: string;
  otherSnapshotId: string;
  edgeId: string;
  memoryId: string;
  /** A crystallize run in review, one of its pending captures, a knowledge source and one of its entries. */
  runId: string;
  captureId: string;
  sourceId: string;
  entryId: string;
}

/** Text the built-in extractor finds insights in: the fixture's crystallize run and knowledge source. */
export const FIXTURE_TEXT =
  'Always write the test before the fix. Spaced repetition is defined as reviewing at growing intervals.';

export async function makeFixture(api: TestApi, key: TestKey, prefix = '/v1'): Promise<Fixture> {
  const created = async (method: string, path: string, body: unknown) => {
    const response = await call(api, method, `${prefix}${path}`, { key, body });
    assert.equal(response.status, 201, `fixture ${method} ${path}: ${JSON.stringify(response.body)}`);
    return response.body.data.id as string;
  };
  const snapshotId = await created('POST', '/snapshots', snapshotBody({ name: 'Fixture one' }));
  const otherSnapshotId = await created('POST', '/snapshots', snapshotBody({ name: 'Fixture two' }));
  const edgeId = await created('POST', '/edges', {
    source_id: snapshotId,
    target_id: otherSnapshotId,
    edge_type: 'supports',
  });
  const extraBrainId = await created('POST', '/brains', { name: 'Second brain' });
  const memoryId = await created('POST', '/memories', { content: 'The fixture memory: deploys go out on Tuesdays.' });
  const run = await call(api, 'POST', `${prefix}/crystallize`, { key, body: { text: FIXTURE_TEXT, review: true } });
  assert.equal(run.status, 201, `fixture crystallize: ${JSON.stringify(run.body)}`);
  const source = await call(api, 'POST', `${prefix}/specific-knowledge/ingest`, {
    key,
    body: { source_type: 'manual', title: 'Fixture source', content: FIXTURE_TEXT, create_snapshots: false },
  });
  assert.equal(source.status, 201, `fixture ingest: ${JSON.stringify(source.body)}`);
  return {
    brainId: key.brainId,
    extraBrainId,
    snapshotId,
    otherSnapshotId,
    edgeId,
    runId: run.body.run_id,
    captureId: run.body.data.captures[0].id,
    sourceId: source.body.data.source_id,
    entryId: source.body.data.entries[0].id,
    memoryId,
  };
}

/** What the owner sees of a fixture: compared before and after others tried to touch it. */
export async function readFixture(api: TestApi, key: TestKey, fixture: Fixture): Promise<Record<string, unknown>> {
  const read = async (path: string) => {
    const response = await call(api, 'GET', path, { key });
    assert.equal(response.status, 200, `read ${path}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  return {
    snapshot: await read(`/v1/snapshots/${fixture.snapshotId}`),
    otherSnapshot: await read(`/v1/snapshots/${fixture.otherSnapshotId}`),
    edge: await read(`/v1/edges/${fixture.edgeId}`),
    brain: await read(`/v1/brains/${fixture.brainId}`),
    extraBrain: await read(`/v1/brains/${fixture.extraBrainId}`),
    brains: await read('/v1/brains'),
    snapshots: await read('/v1/snapshots'),
    edges: await read(`/v1/edges?brain_id=${fixture.brainId}`),
    run: await read(`/v1/crystallize/${fixture.runId}`),
    captures: await read(`/v1/captures?brain_id=${fixture.brainId}`),
    source: await read(`/v1/specific-knowledge/sources/${fixture.sourceId}`),
    memory: await read(`/v1/memories/${fixture.memoryId}`),
    memories: await read('/v1/memories'),
  };
}
