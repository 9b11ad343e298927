// Shared helpers for the snapshot endpoint tests (not a test file itself: the runner only picks *.test.ts).
import assert from 'node:assert/strict';
import type { ApiResponse, TestApi, TestKey } from '../helpers/harness.js';

/** ISO 8601 UTC with milliseconds, as design §2.1 requires for created_at/updated_at. */
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** `snap_` followed by a URL-safe part long enough to hold a time prefix and >= 80 random bits. */
export const SNAP_ID = /^snap_[A-Za-z0-9_-]{16,}$/;
export const BRAIN_ID = /^brain_[A-Za-z0-9_-]+$/;

export const SNAPSHOT_TYPES = ['Belief', 'Model', 'Rule', 'Conviction', 'Principle'] as const;

/** The optional free-text fields of design §2.1 (one_liner has its own, smaller limit). */
export const TEXT_FIELDS = [
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
] as const;
export const LONG_TEXT_FIELDS = TEXT_FIELDS.filter((field) => field !== 'one_liner');

/** Every field a snapshot object carries (design §2.1, both tables), and nothing else. */
export const SNAPSHOT_FIELDS = [
  'id',
  'brain_id',
  'name',
  'core',
  'type',
  ...TEXT_FIELDS,
  'emotion',
  'confidence',
  'significance_score',
  'tags',
  'source_type',
  'source_id',
  'created_at',
  'updated_at',
].sort();

export const READ_ONLY_FIELDS = ['id', 'brain_id', 'source_type', 'source_id', 'created_at', 'updated_at'] as const;

export const T0 = Date.parse('2026-01-01T00:00:00.000Z');

/**
 * A key with limits high enough that no test ever meets a rate limit (several tests make more
 * requests per second than the Free and Pro plans allow, some with a clock that never moves).
 */
export function newKey(api: TestApi, brainId?: string): Promise<TestKey> {
  return api.newKey({ plan: 'enterprise', rpm: 1_000_000, burst: 1_000_000, ...(brainId ? { brainId } : {}) });
}

/** A full snapshot body: every settable field with a non-default value. */
export function fullBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Margin of safety',
    core: 'Leave room for being wrong',
    type: 'Principle',
    one_liner: 'Build in slack',
    story: 'A bridge built for exactly its expected load',
    moment: 'The 2008 crash',
    emotion: { primary: 'calm', intensity: 0.7, secondary: ['relief', 'caution'], meta: { nested: true } },
    source: 'Benjamin Graham',
    trigger_pattern: 'Any forecast with a single point estimate',
    method: 'Size the downside first',
    steps: '1. Estimate. 2. Halve it. 3. Act on the half.',
    filter: 'Not for reversible, cheap decisions',
    challenge: 'Too much slack wastes capacity',
    break_test: 'Repeated evidence that slack is never used',
    risks: 'Opportunity cost',
    proof: 'Engineering safety factors',
    confidence: 0.85,
    significance_score: 0.9,
    tags: ['investing', 'engineering'],
    ...overrides,
  };
}

/** The snapshot a minimal create produces, apart from the service-set fields given. */
export function defaultsFor(
  service: { id: string; brain_id: string; created_at: string; updated_at: string },
  fields: { name: string; core: string },
): Record<string, unknown> {
  return {
    ...service,
    name: fields.name,
    core: fields.core,
    type: 'Belief',
    ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, null])),
    emotion: null,
    confidence: 0.5,
    significance_score: 0.5,
    tags: [],
    source_type: 'manual',
    source_id: null,
  };
}

export async function createSnapshot(
  api: TestApi,
  key: TestKey,
  body: Record<string, unknown>,
  prefix = '/v1',
): Promise<Record<string, any>> {
  const res = await api.request('POST', `${prefix}/snapshots`, { key, body });
  assert.equal(res.status, 201, `create failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function getSnapshot(api: TestApi, key: TestKey, id: string): Promise<Record<string, any>> {
  const res = await api.request('GET', `/v1/snapshots/${id}`, { key });
  assert.equal(res.status, 200, `get failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function createBrain(api: TestApi, key: TestKey, name = 'Second brain'): Promise<string> {
  const res = await api.request('POST', '/v1/brains', { key, body: { name } });
  assert.equal(res.status, 201, `brain create failed: ${JSON.stringify(res.body)}`);
  assert.match(res.body.data.id, BRAIN_ID);
  return res.body.data.id;
}

/**
 * Asserts the error body of design §4.1: exactly `{error: {code, message[, details]}, request_id}`,
 * with the request id also in the X-Request-Id header. With `field`, asserts the validation
 * details: `field`/`reason` name the first problem and `errors` lists them all.
 */
export function assertError(
  res: ApiResponse,
  status: number,
  code: string,
  field?: string | RegExp,
): { field: string; reason: string; errors: { field: string; reason: string }[] } | undefined {
  const context = `${res.status} ${JSON.stringify(res.body)}`;
  assert.equal(res.status, status, context);
  assert.equal(typeof res.body, 'object', context);
  assert.deepEqual(Object.keys(res.body).sort(), ['error', 'request_id'], context);
  assert.equal(res.body.error.code, code, context);
  assert.equal(typeof res.body.error.message, 'string', context);
  assert.notEqual(res.body.error.message.trim(), '', context);
  assert.match(res.body.request_id, /^req_./, context);
  assert.equal(res.headers['x-request-id'], res.body.request_id, context);
  assert.match(String(res.headers['content-type']), /^application\/json/, context);
  if (field === undefined) return undefined;
  const details = res.body.error.details;
  assert.equal(typeof details, 'object', context);
  assert.notEqual(details, null, context);
  assert.equal(typeof details.reason, 'string', context);
  assert.notEqual(details.reason, '', context);
  if (typeof field === 'string') assert.equal(details.field, field, context);
  else assert.match(details.field, field, context);
  assert.ok(Array.isArray(details.errors), context);
  assert.ok(details.errors.length >= 1, context);
  assert.deepEqual(details.errors[0], { field: details.field, reason: details.reason }, context);
  for (const problem of details.errors) {
    assert.deepEqual(Object.keys(problem).sort(), ['field', 'reason'], context);
    assert.equal(typeof problem.field, 'string', context);
    assert.equal(typeof problem.reason, 'string', context);
  }
  return details;
}

/** The field names of every problem a validation error lists. */
export function problemFields(res: ApiResponse): string[] {
  return (res.body?.error?.details?.errors ?? []).map((problem: { field: string }) => problem.field);
}
