// The search-evaluation sets (../shared/search-eval/data by default): snapshots, edges and
// labelled questions, one JSON object a line. They are read where they are, never copied.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO } from './server.mjs';

/** Each set and the query field that says a question's kind. */
export const SETS = { musique: 'hops', hotpotqa: 'type' };

export const DEFAULT_DATA_DIR = resolve(REPO, '../shared/search-eval/data');

function readJsonl(path) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line);
      } catch (err) {
        throw new Error(`${path}:${i + 1}: ${err.message}`);
      }
    });
}

/** The data directory to use: the one given, else the default when it exists, else undefined. */
export function dataDir(given) {
  if (given) {
    if (!existsSync(given)) throw new Error(`--data ${given}: no such directory`);
    return resolve(given);
  }
  return existsSync(DEFAULT_DATA_DIR) ? DEFAULT_DATA_DIR : undefined;
}

/**
 * One set: { name, kindField, snapshots: [{ref, name, core}], edges: [{source_ref, target_ref,
 * edge_type, strength, label}], queries: [{qid, q, relevant: Set<ref>, kind}] }.
 */
export function loadSet(dir, name) {
  const kindField = SETS[name];
  if (!kindField) throw new Error(`unknown set "${name}" (one of ${Object.keys(SETS).join(', ')})`);
  const folder = join(dir, name);
  const snapshots = readJsonl(join(folder, 'snapshots.jsonl'));
  const edges = readJsonl(join(folder, 'edges.jsonl'));
  const refs = new Set(snapshots.map((s) => s.ref));
  for (const e of edges)
    if (!refs.has(e.source_ref) || !refs.has(e.target_ref)) throw new Error(`${name}: edge to an unknown ref`);
  const queries = readJsonl(join(folder, 'queries.jsonl')).map((q) => {
    const relevant = new Set(
      Object.entries(q.relevant)
        .filter(([, grade]) => grade > 0)
        .map(([ref]) => ref),
    );
    for (const ref of relevant) if (!refs.has(ref)) throw new Error(`${name} ${q.qid}: relevant ref ${ref} unknown`);
    return { qid: q.qid, q: q.q, relevant, kind: String(q[kindField]) };
  });
  return { name, kindField, snapshots, edges, queries };
}

/** Every `step`-th question, `count` in all: a fixed, spread-out sample for smoke runs. */
export function sampleQueries(queries, count) {
  if (count >= queries.length) return queries;
  const step = queries.length / count;
  return Array.from({ length: count }, (_, i) => queries[Math.floor(i * step)]);
}

/**
 * A smaller corpus for smoke runs: every paragraph the given questions need, then others spread
 * over the set up to `size`, and the given edges between those kept.
 */
export function subset(set, queries, size) {
  const keep = new Set(queries.flatMap((q) => [...q.relevant]));
  const step = Math.max(1, Math.floor(set.snapshots.length / size));
  for (let i = 0; i < set.snapshots.length && keep.size < size; i += step) keep.add(set.snapshots[i].ref);
  return {
    ...set,
    snapshots: set.snapshots.filter((s) => keep.has(s.ref)),
    edges: set.edges.filter((e) => keep.has(e.source_ref) && keep.has(e.target_ref)),
  };
}
