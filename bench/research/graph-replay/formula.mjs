// The graph part of snapshot search (docs/ranking.md, "Graph") as a formula over a dump made by
// dump.mjs: each question's text parts as the service computed them, the brain's edges, and a
// formula given by its options. Shared by replay.mjs (formulas) and bounds.mjs (oracles).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { REPO } from '../../lib/server.mjs';
import { ndcgAt } from '../../lib/ir-metrics.mjs';

const require = createRequire(`${REPO}/packages/server/package.json`);
const porter2 = require('wink-porter2-stemmer');
const STOP = new Set(require('stopword').eng);
const dumpPath = process.argv[2];
if (!dumpPath) throw new Error('usage: node <script> <dump.json> (made by dump.mjs)');
export const dump = JSON.parse(readFileSync(dumpPath, 'utf8'));
export const INFLUENCE = {
  supports: [1, 0.3],
  elaborates: [0.8, 1],
  caused_by: [0.5, 0.5],
  evolved_from: [0.2, 1],
  related_to: [0.5, 0.5],
  contradicts: [0, 0],
};
export const SHIPPED = {
  seeds: 5,
  spare: 30,
  seedPower: 3,
  hub: 0.5,
  gamma: 1,
  bringIn: 0.05,
  bridge: 1,
  rarity: true,
};
export const stems = (text) => new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => porter2(w)));

export const sets = {};
for (const [name, set] of Object.entries(dump.sets)) {
  const held = new Map(Object.entries(set.texts).map(([ref, text]) => [ref, stems(text)]));
  const df = new Map();
  for (const s of held.values()) for (const w of s) df.set(w, (df.get(w) ?? 0) + 1);
  const weight = (w) => Math.log(1 + 1000 / Math.min(1000, Math.max(1, df.get(w) ?? 1)));
  sets[name] = {};
  for (const [label, brain] of Object.entries(set.brains)) {
    const adj = new Map();
    for (const e of dump.edges) {
      if (e.brain_id !== brain.brainId) continue;
      const edge = {
        s: brain.idRef[e.source_id],
        t: brain.idRef[e.target_id],
        type: e.edge_type,
        w: Number(e.strength),
      };
      for (const end of [edge.s, edge.t]) adj.set(end, [...(adj.get(end) ?? []), edge]);
    }
    const queries = set.queries.map((q, i) => {
      const words = [...new Set((q.q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w)))];
      const wanted = new Map(words.map((w) => [porter2(w), weight(porter2(w))]));
      return { ...q, relevant: new Set(q.relevant), off: brain.results[i].off, wanted };
    });
    sets[name][label] = { adj, held, queries };
  }
}

/** Weight of the query stems that any of `refs` holds. */
export function covered(q, held, refs, rarity) {
  let sum = 0;
  for (const [stem, w] of q.wanted) if (refs.some((r) => held.get(r)?.has(stem))) sum += rarity ? w : 1;
  return sum;
}

/** The graph parts of one question under formula P (one hop from the seeds, noisy OR). */
export function graphParts(q, brain, candidates, P) {
  const seeds = [...candidates.values()].sort((a, b) => b.base - a.base).slice(0, P.seeds);
  const rest = new Map();
  for (const seed of seeds) {
    const edges = brain.adj.get(seed.ref) ?? [];
    const weight = seed.base ** P.seedPower / Math.max(1, edges.length) ** P.hub;
    const alone = covered(q, brain.held, [seed.ref], P.rarity);
    // P.compete k: a seed's neighbours share its push by gain^k (its mean over them is 1).
    const gainOf = (other) => (alone > 0 ? covered(q, brain.held, [seed.ref, other], P.rarity) / alone : 1);
    const mean = P.compete
      ? edges.reduce((sum, e) => sum + gainOf(e.s === seed.ref ? e.t : e.s) ** P.compete, 0) / Math.max(1, edges.length)
      : 1;
    for (const e of edges) {
      const other = e.s === seed.ref ? e.t : e.s;
      const influence = (P.influence ?? INFLUENCE)[e.type][e.s === seed.ref ? 0 : 1];
      const gain = P.compete ? gainOf(other) ** P.compete / mean : P.bridge ? gainOf(other) ** P.bridge : 1;
      // P.push, when given, may change one push: the oracles of bounds.mjs drop or keep it by the labels.
      const c = (P.push ?? ((_q, _seed, _other, pushed) => pushed))(
        q,
        seed.ref,
        other,
        Math.min(1, influence * e.w * weight * gain),
      );
      if (c > 0) rest.set(other, (rest.get(other) ?? 1) * (1 - c));
    }
  }
  return new Map([...rest].map(([ref, r]) => [ref, 1 - r]));
}

export function ranked(q, brain, P, graph) {
  const candidates = new Map(q.off.slice(0, P.spare).map(([ref, text]) => [ref, { ref, base: text, g: 0 }]));
  const deeper = new Set(q.off.map(([ref]) => ref));
  if (graph) {
    for (const [ref, g] of graphParts(q, brain, candidates, P)) {
      if (!candidates.has(ref) && (deeper.has(ref) || g >= P.bringIn)) candidates.set(ref, { ref, base: 0, g: 0 });
      if (candidates.has(ref)) candidates.get(ref).g = g;
    }
  }
  const score = (c) => (graph ? 1 - (1 - c.base) * (1 - P.gamma * c.g) : c.base);
  return [...candidates.values()].sort((a, b) => score(b) - score(a)).map((c) => c.ref);
}

export function report(label, P) {
  const cells = [];
  for (const kind of ['given', 'auto']) {
    for (const [name, brains] of Object.entries(sets)) {
      const brain = brains[kind];
      const mean = (graph) =>
        brain.queries.reduce((sum, q) => sum + ndcgAt(ranked(q, brain, P, graph), q.relevant, 10), 0) /
        brain.queries.length;
      cells.push(`${kind} ${name} ${(mean(true) / mean(false)).toFixed(3)}`);
    }
  }
  console.log(`${label.padEnd(34)} ${cells.join('  ')}`);
}
