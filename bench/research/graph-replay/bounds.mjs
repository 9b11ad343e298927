// How far any graph formula over a dump's edges could lift nDCG@10 (docs/ranking.md, "How far
// the given edges can go"): oracles that know the labels, beside the shipped formula. An oracle
// row is not a method: it says what a method would have to get right to reach a figure.
//   node bench/research/graph-replay/bounds.mjs <dump.json>
import { ndcgAt } from '../../lib/ir-metrics.mjs';
import { covered, dump, ranked, sets, SHIPPED, stems } from './formula.mjs';

/** graph ÷ text nDCG@10 of each set and kind of edges, for a ranking of one question. */
function row(label, rank) {
  const cells = [];
  for (const kind of ['given', 'auto']) {
    for (const [name, brains] of Object.entries(sets)) {
      const brain = brains[kind];
      let text = 0;
      let graph = 0;
      for (const q of brain.queries) {
        text += ndcgAt(ranked(q, brain, SHIPPED, false), q.relevant, 10);
        graph += ndcgAt(rank(q, brain), q.relevant, 10);
      }
      cells.push(`${kind} ${name} ${(graph / text).toFixed(3)}`);
    }
  }
  console.log(`${label.padEnd(46)} ${cells.join('  ')}`);
}

/** The text ranking with every labelled paragraph one edge from a labelled one of its first k put first. */
function labelledNeighboursFirst(q, brain, k) {
  const textOrder = ranked(q, brain, SHIPPED, false);
  const first = new Set();
  for (const seed of textOrder.slice(0, k).filter((ref) => q.relevant.has(ref))) {
    for (const e of brain.adj.get(seed) ?? []) {
      const other = e.s === seed ? e.t : e.s;
      if (q.relevant.has(other)) first.add(other);
    }
  }
  return [...first, ...textOrder.filter((ref) => !first.has(ref))];
}

const shipped = (q, brain) => ranked(q, brain, SHIPPED, true);
row('shipped formula', shipped);
row('… never worse than text for a question', (q, brain) => {
  const [text, graph] = [ranked(q, brain, SHIPPED, false), shipped(q, brain)];
  return ndcgAt(graph, q.relevant, 10) >= ndcgAt(text, q.relevant, 10) ? graph : text;
});
row('… no push onto an unlabelled paragraph', (q, brain) =>
  ranked(q, brain, { ...SHIPPED, push: (_q, _seed, other, c) => (q.relevant.has(other) ? c : 0) }, true),
);
row('… no push from an unlabelled seed', (q, brain) =>
  ranked(q, brain, { ...SHIPPED, push: (_q, seed, _other, c) => (q.relevant.has(seed) ? c : 0) }, true),
);
row('… only pushes between labelled ones, ×3', (q, brain) =>
  ranked(
    q,
    brain,
    {
      ...SHIPPED,
      push: (_q, seed, other, c) => (q.relevant.has(seed) && q.relevant.has(other) ? Math.min(1, 3 * c) : 0),
    },
    true,
  ),
);
for (const k of [5, 100]) {
  row(`labelled neighbours of labelled top ${k} first`, (q, brain) => labelledNeighboursFirst(q, brain, k));
}

/**
 * The share of labelled paragraphs among those the five seeds push (given edges), with and
 * without a signal a formula could read: how well each tells the next hop from the other
 * neighbours.
 */
function signals(name) {
  const brain = sets[name].given;
  const { texts, names } = dump.sets[name];
  const pushed = [];
  for (const q of brain.queries) {
    const seen = new Map();
    for (const seed of ranked(q, brain, SHIPPED, false).slice(0, SHIPPED.seeds)) {
      const alone = covered(q, brain.held, [seed], true);
      const edges = brain.adj.get(seed) ?? [];
      for (const e of edges) {
        const other = e.s === seed ? e.t : e.s;
        const p = seen.get(other) ?? { labelled: q.relevant.has(other), bridge: false, named: false, names: false };
        p.bridge ||= alone > 0 && covered(q, brain.held, [seed, other], true) > alone;
        // Edges of the given set run from the named paragraph to the one naming it.
        if (e.s === other) p.named = true;
        else p.names = true;
        p.lone = (brain.adj.get(other) ?? []).length === 1;
        const title = names[other].replace(/\s*\(.*\)\s*$/, '').toLowerCase();
        const sentences = texts[seed].split(/(?<=[.!?])\s+/).filter((s) => s.toLowerCase().includes(title));
        if (sentences.length > 0) {
          const titleStems = stems(title);
          const nearWord = sentences.some((s) => [...stems(s)].some((w) => q.wanted.has(w) && !titleStems.has(w)));
          p.sentence = p.sentence || nearWord ? true : false;
        }
        seen.set(other, p);
      }
    }
    pushed.push(...seen.values());
  }
  const share = (test) => {
    const them = pushed.filter(test);
    return `${((100 * them.filter((p) => p.labelled).length) / Math.max(1, them.length)).toFixed(1)} % of ${them.length}`;
  };
  console.log(`\n${name}, given edges: labelled among pushed paragraphs ${share(() => true)}`);
  for (const [label, test] of [
    ['the pair holds a query word the seed lacks', (p) => p.bridge],
    ['the seed names it, not the reverse', (p) => p.named && !p.names],
    ['it names the seed, not the reverse', (p) => p.names && !p.named],
    ['it has one edge', (p) => p.lone],
    ["the seed's sentence naming it holds a query word", (p) => p.sentence === true],
    ["the seed's sentences naming it hold none", (p) => p.sentence === false],
  ]) {
    console.log(`  ${label.padEnd(50)} ${share(test).padEnd(14)}  otherwise ${share((p) => !test(p))}`);
  }
}
for (const name of Object.keys(sets)) signals(name);
