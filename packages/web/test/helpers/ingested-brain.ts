/**
 * A brain as automatic linking leaves it after ingesting a few documents (issue 49): 39
 * snapshots on five topics and 132 automatic edges (origin `auto`, strength 0.35 and up, as
 * design §9's rules make them), most between snapshots of one topic, a few weak ones across
 * topics, plus a handful a person made. Written as an export file (design §15), because the
 * API makes every edge it is sent a manual one; imported through POST /v1/brains/import.
 */

import { TEXT_FIELDS } from '../../../server/test/snapshots/fixtures.js';

export const TOPICS = ['Deploys', 'Sleep', 'Hiring', 'Cooking', 'Reading'] as const;
export const SNAPSHOTS = 39;
export const AUTO_EDGES = 132;
const TIME = '2026-03-04T05:06:07.008Z';

const id = (prefix: string, n: number) => `${prefix}_01INGESTED${String(n).padStart(16, '0')}`;
export const snapshotId = (n: number) => id('snap', n);
/** The topic of snapshot n: blocks of eight, the last of seven. */
export const topicOf = (n: number) => Math.floor(n / 8);

export interface IngestedEdge {
  id: string;
  source: number;
  target: number;
  edge_type: string;
  strength: number;
  origin: 'auto' | 'manual';
}

/** 120 automatic edges inside topics, 12 weak ones across them, and 5 manual ones. */
export function ingestedEdges(): IngestedEdge[] {
  const edges: IngestedEdge[] = [];
  const inside: Array<[number, number]> = [];
  for (let a = 0; a < SNAPSHOTS; a++) {
    for (let b = a + 1; b < SNAPSHOTS; b++) if (topicOf(a) === topicOf(b)) inside.push([a, b]);
  }
  // Strengths over 0.35–0.95, most of them low as text scores are, the same way every run.
  inside.slice(0, 120).forEach(([a, b], i) => {
    const u = ((i * 37) % 60) / 60;
    const strength = Math.round((0.35 + 0.6 * u * u) * 100) / 100;
    edges.push({
      id: id('edge', edges.length),
      source: a,
      target: b,
      edge_type: 'related_to',
      strength,
      origin: 'auto',
    });
  });
  for (let i = 0; i < AUTO_EDGES - 120; i++) {
    const a = (i * 7) % SNAPSHOTS;
    const b = (a + 9 + (i % 5)) % SNAPSHOTS;
    edges.push({
      id: id('edge', edges.length),
      source: a,
      target: b,
      edge_type: 'related_to',
      strength: 0.36 + (i % 4) / 100,
      origin: 'auto',
    });
  }
  const manual: Array<[number, number, string]> = [
    [0, 1, 'supports'],
    [8, 9, 'contradicts'],
    [16, 17, 'elaborates'],
    [24, 25, 'caused_by'],
    [32, 33, 'supports'],
  ];
  for (const [a, b, type] of manual) {
    edges.push({
      id: id('edge', edges.length),
      source: a,
      target: b,
      edge_type: type,
      strength: 0.8,
      origin: 'manual',
    });
  }
  return edges;
}

/** The export file of that brain, for the account `accountId`. */
export function ingestedBrainExport(accountId: string, brainId: string): string {
  const record = (kind: string, data: unknown) => JSON.stringify({ kind, data });
  const lines = [
    JSON.stringify({
      format: 'snapgraph-export',
      version: 1,
      exported_at: TIME,
      brain_id: brainId,
      sections: ['brain', 'snapshot', 'edge'],
    }),
    record('brain', {
      id: brainId,
      account_id: accountId,
      name: 'Ingested notes',
      auto_link: false,
      created_at: TIME,
      updated_at: TIME,
    }),
  ];
  for (let n = 0; n < SNAPSHOTS; n++) {
    const topic = TOPICS[topicOf(n)] as string;
    lines.push(
      record('snapshot', {
        id: snapshotId(n),
        brain_id: brainId,
        name: `${topic} note ${(n % 8) + 1}`,
        core: `What the ingested document says about ${topic.toLowerCase()}, point ${(n % 8) + 1}`,
        type: ['Belief', 'Model', 'Rule', 'Principle', 'Conviction'][n % 5],
        ...Object.fromEntries(TEXT_FIELDS.map((field) => [field, null])),
        emotion: null,
        confidence: 0.5,
        significance_score: 0.5,
        tags: [topic.toLowerCase()],
        source_type: 'api',
        source_id: null,
        created_at: TIME,
        updated_at: TIME,
      }),
    );
  }
  const edges = ingestedEdges();
  for (const edge of edges) {
    lines.push(
      record('edge', {
        id: edge.id,
        brain_id: brainId,
        source_id: snapshotId(edge.source),
        target_id: snapshotId(edge.target),
        edge_type: edge.edge_type,
        strength: edge.strength,
        label: null,
        origin: edge.origin,
        created_at: TIME,
        updated_at: TIME,
      }),
    );
  }
  lines.push(JSON.stringify({ kind: 'end', counts: { brain: 1, snapshot: SNAPSHOTS, edge: edges.length } }));
  return `${lines.join('\n')}\n`;
}
