import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApi, TestKey } from '../helpers/harness.js';

/** A small brain with every kind of record: snapshots (one with every field), edges, a tombstone. */
export async function fillBrain(api: TestApi, key: TestKey): Promise<{ snapshots: string[]; edges: string[] }> {
  const snapshots: string[] = [];
  const bodies = [
    {
      name: 'Compounding',
      core: 'Small consistent gains compound over time',
      type: 'Principle',
      one_liner: 'Tiny gains add up',
      story: 'Saw it in <savings> & "habits"',
      emotion: { primary: 'calm', intensity: 0.25, z: [1, 2] },
      confidence: 0.1,
      significance_score: 0.9,
      tags: ['growth', 'Ünïcode ✓'],
    },
    { name: 'Focus', core: 'Doing one thing at a time finishes more things', type: 'Rule' },
    { name: 'Rest', core: 'Rest is part of the work', type: 'Belief', tags: ['health'] },
  ];
  for (const body of bodies) {
    const created = await api.request('POST', '/v1/snapshots', { key, body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    snapshots.push(created.body.data.id);
  }
  const [a, b, c] = snapshots as [string, string, string];
  await api.request('PUT', `/v1/snapshots/${b}`, { key, body: { challenge: 'Some work needs switching' } });
  const edges: string[] = [];
  for (const body of [
    { source_id: a, target_id: b, edge_type: 'supports', strength: 0.7, label: 'because' },
    { source_id: c, target_id: a, edge_type: 'related_to' },
    { source_id: b, target_id: c, edge_type: 'contradicts', strength: 0.3 },
  ]) {
    const created = await api.request('POST', '/v1/edges', { key, body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    edges.push(created.body.data.id);
  }
  // Deleting an edge leaves a tombstone, which the export carries.
  const deleted = await api.request('DELETE', `/v1/edges/${edges.pop()}`, { key });
  assert.equal(deleted.status, 200);
  // A memory with every field, and a knowledge source with its entries (no snapshots made).
  const memory = await api.request('POST', '/v1/memories', {
    key,
    body: {
      content: 'We decided to ship on Tuesdays',
      memory_type: 'decision',
      speaker: 'Ada',
      tags: ['release'],
      source_emotion: 'relief',
      emotional_valence: 0.5,
      emotional_intensity: 0.25,
      brain_id: key.brainId,
    },
  });
  assert.equal(memory.status, 201, JSON.stringify(memory.body));
  const source = await api.request('POST', '/v1/specific-knowledge/ingest', {
    key,
    body: {
      source_type: 'book',
      title: 'Learning',
      author: 'Ada',
      content: 'Spaced repetition is defined as reviewing at growing intervals. Always test yourself.',
      domain: 'learning',
      tags: ['memory'],
      create_snapshots: false,
      brain_id: key.brainId,
    },
  });
  assert.equal(source.status, 201, JSON.stringify(source.body));
  return { snapshots, edges };
}

export async function exportText(api: TestApi, key: TestKey | string, brainId: string, format = 'jsonl') {
  const response = await api.request('GET', `/v1/brains/${brainId}/export?format=${format}`, {
    key: key as TestKey,
  });
  assert.equal(response.status, 200, response.raw.body);
  return response.raw.body;
}

/** The file without the header's time, which is the only thing two exports may differ in. */
export const withoutExportTime = (text: string) => text.replace(/"exported_at":"[^"]*"/, '"exported_at":"…"');

export function writeFile(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

export const parseLines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind?: string; data?: Record<string, unknown>; [k: string]: unknown });
