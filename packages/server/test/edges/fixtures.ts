// Shared helpers for the edge and brain tests (not a test file itself).
import assert from 'node:assert/strict';
import { snapshotBody, type ApiResponse, type TestApi, type TestKey } from '../helpers/harness.js';

export const EDGE_TYPES = ['supports', 'contradicts', 'elaborates', 'caused_by', 'evolved_from', 'related_to'] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const EDGE_ID = /^edge_[0-9A-Z]{26}$/;
export const BRAIN_ID = /^brain_[0-9A-Z]{26}$/;
export const EDGE_KEYS = [
  'brain_id',
  'created_at',
  'edge_type',
  'id',
  'label',
  'origin',
  'source_id',
  'strength',
  'target_id',
  'updated_at',
];

export const iso = (ms: number): string => new Date(ms).toISOString();

export interface Edge {
  id: string;
  brain_id: string;
  source_id: string;
  target_id: string;
  edge_type: EdgeType;
  strength: number;
  label: string | null;
  created_at: string;
  updated_at: string;
}

export interface Snapshot {
  id: string;
  brain_id: string;
  updated_at: string;
  [field: string]: unknown;
}

export interface Brain {
  id: string;
  account_id: string;
  name: string;
  snapshot_count: number;
  edge_count: number;
  memory_count: number;
  created_at: string;
  updated_at: string;
}

/**
 * A key with its own account and default brain. Enterprise with very high custom limits, so
 * that these functional tests never run into the per-key rate limits of the free/pro plans.
 */
export function newKey(api: TestApi, options: { brainId?: string } = {}): Promise<TestKey> {
  return api.newKey({ plan: 'enterprise', rpm: 1_000_000, burst: 100_000, ...options });
}

export async function createSnapshot(
  api: TestApi,
  key: TestKey,
  overrides: Record<string, unknown> = {},
): Promise<Snapshot> {
  const res = await api.request('POST', '/v1/snapshots', { key, body: snapshotBody(overrides) });
  assert.equal(res.status, 201, `snapshot create failed: ${JSON.stringify(res.body)}`);
  return res.body.data as Snapshot;
}

export async function createSnapshots(
  api: TestApi,
  key: TestKey,
  count: number,
  overrides: Record<string, unknown> = {},
): Promise<Snapshot[]> {
  const out: Snapshot[] = [];
  for (let i = 0; i < count; i++) out.push(await createSnapshot(api, key, { name: `S${i}`, ...overrides }));
  return out;
}

export async function createBrain(api: TestApi, key: TestKey, name = 'Second brain'): Promise<Brain> {
  const res = await api.request('POST', '/v1/brains', { key, body: { name } });
  assert.equal(res.status, 201, `brain create failed: ${JSON.stringify(res.body)}`);
  return res.body.data as Brain;
}

export async function getBrain(api: TestApi, key: TestKey, brainId: string): Promise<Brain> {
  const res = await api.request('GET', `/v1/brains/${brainId}`, { key });
  assert.equal(res.status, 200, `brain get failed: ${JSON.stringify(res.body)}`);
  return res.body.data as Brain;
}

export async function getSnapshot(api: TestApi, key: TestKey, id: string): Promise<Snapshot> {
  const res = await api.request('GET', `/v1/snapshots/${id}`, { key });
  assert.equal(res.status, 200, `snapshot get failed: ${JSON.stringify(res.body)}`);
  return res.body.data as Snapshot;
}

export async function createEdge(
  api: TestApi,
  key: TestKey,
  body: { source_id: string; target_id: string; edge_type: EdgeType; strength?: number; label?: string | null },
): Promise<Edge> {
  const res = await api.request('POST', '/v1/edges', { key, body });
  assert.equal(res.status, 201, `edge create failed: ${JSON.stringify(res.body)}`);
  return res.body.data as Edge;
}

/** Every edge of a brain (the service's newest-first order), checked for the list shape. */
export async function brainEdges(api: TestApi, key: TestKey, brainId: string): Promise<Edge[]> {
  const res = await api.request('GET', `/v1/edges?brain_id=${brainId}&limit=200`, { key });
  assert.equal(res.status, 200, `edge list failed: ${JSON.stringify(res.body)}`);
  assert.deepEqual(Object.keys(res.body).sort(), ['data', 'total']);
  assert.equal(res.body.total, res.body.data.length);
  return res.body.data as Edge[];
}

/** The stored state of one edge, read through the list endpoint; undefined when it is gone. */
export async function storedEdge(api: TestApi, key: TestKey, edge: Edge): Promise<Edge | undefined> {
  return (await brainEdges(api, key, edge.brain_id)).find((e) => e.id === edge.id);
}

/** Newest first: created_at descending, then id descending. */
export function newestFirst<T extends { created_at: string; id: string }>(items: T[]): T[] {
  return [...items].sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.created_at < b.created_at ? 1 : -1,
  );
}

/** An error body: exactly `{error: {code, message[, details]}, request_id}`. */
export function assertError(res: ApiResponse, status: number, code: string): void {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body, 'object');
  assert.deepEqual(Object.keys(res.body).sort(), ['error', 'request_id']);
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, 'string');
  assert.ok(res.body.error.message.length > 0);
  assert.match(res.body.request_id, /^req_/);
  for (const field of Object.keys(res.body.error)) assert.ok(['code', 'message', 'details'].includes(field), field);
}

/**
 * A validation error: 400 BAD_REQUEST naming `field` first, with
 * `details: {field, reason, errors: [{field, reason}, …]}`.
 */
export function assertBadRequest(res: ApiResponse, field: string, reason?: RegExp): void {
  assertError(res, 400, 'BAD_REQUEST');
  const details = res.body.error.details;
  assert.ok(details, `expected details in ${JSON.stringify(res.body)}`);
  assert.deepEqual(Object.keys(details).sort(), ['errors', 'field', 'reason']);
  assert.equal(details.field, field, JSON.stringify(res.body));
  assert.equal(typeof details.reason, 'string');
  assert.ok(details.reason.length > 0);
  if (reason) assert.match(details.reason, reason);
  assert.ok(Array.isArray(details.errors) && details.errors.length >= 1);
  assert.deepEqual(details.errors[0], { field: details.field, reason: details.reason });
  for (const problem of details.errors) {
    assert.deepEqual(Object.keys(problem).sort(), ['field', 'reason']);
  }
  assert.ok(res.body.error.message.includes(field), `message should name ${field}: ${res.body.error.message}`);
}

/** Two error responses that must be indistinguishable (apart from their request ids). */
export function assertSameError(a: ApiResponse, b: ApiResponse): void {
  assert.equal(a.status, b.status);
  assert.deepEqual(a.body.error, b.body.error);
}
