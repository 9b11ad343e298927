import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Edge, SnapgraphClient, Snapshot } from '@snapgraph/client';
import {
  addEdges,
  addSnapshots,
  countVisible,
  createGraph,
  edgePasses,
  evolvedFromChain,
  DEFAULT_FILTERS,
  NO_FILTERS,
  placeByBreadth,
  sizeByDegree,
  tagsByUse,
} from '../src/graph/build.js';
import { loadBrainGraph, type LoadProgress } from '../src/graph/load.js';
import { EDGE_COLOURS, NODE_COLOURS, edgeSize } from '../src/graph/style.js';
import { readViewState, writeViewState } from '../src/view-state.js';

const snapshot = (id: string, type = 'Belief', tags: string[] = []): Snapshot =>
  ({ id, name: `name ${id}`, core: 'core', type, tags }) as unknown as Snapshot;
const edge = (id: string, source: string, target: string, edge_type: string, strength = 0.5, origin = 'manual'): Edge =>
  ({ id, source_id: source, target_id: target, edge_type, strength, origin, label: null }) as unknown as Edge;

test('snapshots become nodes coloured by type, spread out, refreshed in place', () => {
  const graph = createGraph();
  addSnapshots(graph, [snapshot('a', 'Model'), snapshot('b', 'Rule'), snapshot('c')]);
  assert.equal(graph.order, 3);
  assert.equal(graph.getNodeAttribute('a', 'color'), NODE_COLOURS.Model);
  assert.equal(graph.getNodeAttribute('b', 'color'), NODE_COLOURS.Rule);
  const positions = graph.mapNodes((_n, a) => `${a.x.toFixed(3)},${a.y.toFixed(3)}`);
  assert.equal(new Set(positions).size, 3, 'no two nodes start on the same spot');
  const { x } = graph.getNodeAttributes('a');
  addSnapshots(graph, [{ ...snapshot('a', 'Principle'), name: 'renamed' }]);
  assert.equal(graph.order, 3);
  assert.equal(graph.getNodeAttribute('a', 'label'), 'renamed');
  assert.equal(graph.getNodeAttribute('a', 'color'), NODE_COLOURS.Principle);
  assert.equal(graph.getNodeAttribute('a', 'x'), x, 'a refresh keeps the position');
});

test('edges are coloured by type (contradicts red), sized by strength, auto ones faded; dangling ones skipped', () => {
  const graph = createGraph();
  addSnapshots(graph, [snapshot('a'), snapshot('b')]);
  const result = addEdges(graph, [
    edge('e1', 'a', 'b', 'contradicts', 1),
    edge('e2', 'b', 'a', 'supports', 0.2, 'auto'),
    edge('e3', 'a', 'missing', 'supports'),
  ]);
  assert.deepEqual(result, { added: 2, skipped: 1 });
  assert.equal(graph.getEdgeAttribute('e1', 'color'), EDGE_COLOURS.contradicts);
  assert.equal(EDGE_COLOURS.contradicts, '#d62728');
  assert.match(graph.getEdgeAttribute('e2', 'color'), /^rgba\(.*0\.35\)$/);
  assert.ok(graph.getEdgeAttribute('e1', 'size') > graph.getEdgeAttribute('e2', 'size'));
  assert.equal(graph.getEdgeAttribute('e1', 'size'), edgeSize(1));
  // The same two snapshots may have one edge of each type: a multigraph.
  addEdges(graph, [edge('e4', 'a', 'b', 'supports')]);
  assert.equal(graph.size, 3);
});

test('node size grows with degree', () => {
  const graph = createGraph();
  addSnapshots(
    graph,
    ['hub', 'x', 'y', 'z', 'lone'].map((id) => snapshot(id)),
  );
  addEdges(graph, [
    edge('1', 'hub', 'x', 'supports'),
    edge('2', 'hub', 'y', 'supports'),
    edge('3', 'z', 'hub', 'supports'),
  ]);
  sizeByDegree(graph);
  assert.ok(graph.getNodeAttribute('hub', 'size') > graph.getNodeAttribute('x', 'size'));
  assert.ok(graph.getNodeAttribute('x', 'size') > graph.getNodeAttribute('lone', 'size'));
});

test('filters: snapshot type, tag, edge type and minimum strength', () => {
  const graph = createGraph();
  addSnapshots(graph, [snapshot('a', 'Belief', ['habits']), snapshot('b', 'Rule', ['habits']), snapshot('c', 'Rule')]);
  addEdges(graph, [edge('1', 'a', 'b', 'supports', 0.9), edge('2', 'b', 'c', 'contradicts', 0.3)]);
  assert.deepEqual(countVisible(graph, NO_FILTERS), { nodes: 3, edges: 2, weakAuto: 0 });
  assert.deepEqual(countVisible(graph, { ...NO_FILTERS, snapshotTypes: ['Rule'] }), {
    nodes: 2,
    edges: 1,
    weakAuto: 0,
  });
  assert.deepEqual(countVisible(graph, { ...NO_FILTERS, tag: 'habits' }), { nodes: 2, edges: 1, weakAuto: 0 });
  assert.deepEqual(countVisible(graph, { ...NO_FILTERS, edgeTypes: ['contradicts'] }), {
    nodes: 3,
    edges: 1,
    weakAuto: 0,
  });
  assert.deepEqual(countVisible(graph, { ...NO_FILTERS, minStrength: 0.5 }), { nodes: 3, edges: 1, weakAuto: 0 });
  assert.equal(
    edgePasses(graph.getEdgeAttributes('2'), { ...NO_FILTERS, minStrength: 0.3 }),
    true,
    'at the minimum counts',
  );
});

test('automatic edges below their threshold are hidden by default, and counted; manual ones never', () => {
  const graph = createGraph();
  addSnapshots(graph, [snapshot('a'), snapshot('b'), snapshot('c')]);
  addEdges(graph, [
    edge('weak', 'a', 'b', 'related_to', 0.4, 'auto'),
    edge('strong', 'b', 'c', 'related_to', 0.8, 'auto'),
    edge('mine', 'a', 'c', 'supports', 0.2),
  ]);
  assert.deepEqual(countVisible(graph, DEFAULT_FILTERS), { nodes: 3, edges: 2, weakAuto: 1 });
  assert.equal(edgePasses(graph.getEdgeAttributes('weak'), DEFAULT_FILTERS), false);
  assert.equal(edgePasses(graph.getEdgeAttributes('mine'), DEFAULT_FILTERS), true);
  assert.deepEqual(countVisible(graph, { ...DEFAULT_FILTERS, autoMinStrength: 0 }), {
    nodes: 3,
    edges: 3,
    weakAuto: 0,
  });
  // The threshold is in the URL only when it is not the default.
  assert.equal(readViewState('').filters.autoMinStrength, 0.6);
  const all = { ...readViewState(''), filters: { ...DEFAULT_FILTERS, autoMinStrength: 0 } };
  assert.equal(writeViewState(all), '?auto=0');
  assert.equal(readViewState('?auto=0').filters.autoMinStrength, 0);
});

test('evolved_from chain runs from newest to oldest and stops at a cycle', () => {
  const graph = createGraph();
  addSnapshots(
    graph,
    ['v3', 'v2', 'v1', 'other'].map((id) => snapshot(id)),
  );
  addEdges(graph, [
    edge('1', 'v3', 'v2', 'evolved_from'),
    edge('2', 'v2', 'v1', 'evolved_from'),
    edge('3', 'v1', 'v3', 'evolved_from'),
    edge('4', 'v3', 'other', 'supports'),
  ]);
  assert.deepEqual(evolvedFromChain(graph, 'v3'), ['v2', 'v1']);
  assert.deepEqual(evolvedFromChain(graph, 'other'), []);
});

test('tags are offered most used first', () => {
  const graph = createGraph();
  addSnapshots(graph, [snapshot('a', 'Belief', ['x', 'y']), snapshot('b', 'Belief', ['y'])]);
  assert.deepEqual(tagsByUse(graph), ['y', 'x']);
});

test('the view state round-trips through the URL and never holds a key', () => {
  const state = {
    brain: 'brain_1',
    selected: 'snap_1',
    query: 'compounding habits',
    filters: {
      snapshotTypes: ['Rule', 'Model'],
      tag: 'habits',
      edgeTypes: ['contradicts'],
      minStrength: 0.4,
      autoMinStrength: 0,
    },
  };
  const search = writeViewState(state);
  assert.deepEqual(readViewState(search), state);
  assert.doesNotMatch(search, /key|sg_/);
  assert.equal(writeViewState(readViewState('')), '');
  assert.equal(readViewState('?min=7').filters.minStrength, 1);
});

test('types and edge types the page does not know are dropped from the URL, and case does not matter', () => {
  const { filters } = readViewState('?types=belief,Bogus,Belief,RULE&edges=nope,Contradicts');
  assert.deepEqual(filters.snapshotTypes, ['Belief', 'Rule']);
  assert.deepEqual(filters.edgeTypes, ['contradicts']);
  assert.deepEqual(readViewState('?types=Bogus&edges=nope').filters, DEFAULT_FILTERS);
});

test('loading reads the export stream once, adds its snapshots and edges, and lets it go at the tombstones', async () => {
  const lines = [
    { format: 'snapgraph-export', version: 1, exported_at: '', brain_id: 'brain', sections: [] },
    { kind: 'brain', data: { id: 'brain' } },
    ...['a', 'b', 'c'].map((id) => ({ kind: 'snapshot', data: snapshot(id) })),
    { kind: 'snapshot', data: snapshot('d', 'Rule') },
    { kind: 'edge', data: edge('e1', 'a', 'c', 'supports') },
    { kind: 'edge', data: edge('e2', 'c', 'b', 'contradicts') },
    { kind: 'edge', data: edge('e3', 'd', 'a', 'supports') },
    { kind: 'tombstone', data: {} },
    { kind: 'memory', data: {} },
  ];
  const asked: string[] = [];
  let read = 0;
  let released = false;
  const client = {
    brains: {
      async get(id: string) {
        asked.push(`get ${id}`);
        return { id, edge_count: 3 };
      },
      async *export(id: string) {
        asked.push(`export ${id}`);
        try {
          for (const line of lines) {
            read++;
            yield line;
          }
        } finally {
          released = true;
        }
      },
    },
  } as unknown as SnapgraphClient;
  const seen: LoadProgress[] = [];
  const graph = await loadBrainGraph(client, 'brain', (p) => seen.push({ ...p }));
  assert.deepEqual(asked.sort(), ['export brain', 'get brain']);
  assert.deepEqual(graph.nodes().sort(), ['a', 'b', 'c', 'd']);
  assert.equal(graph.getNodeAttribute('d', 'snapshotType'), 'Rule');
  assert.deepEqual(graph.edges().sort(), ['e1', 'e2', 'e3']);
  assert.ok(graph.getNodeAttribute('a', 'size') > graph.getNodeAttribute('b', 'size'), 'sizes follow degree');
  assert.deepEqual(seen.at(-1), { snapshots: 4, edges: 3, edgesTotal: 3 });
  assert.equal(read, lines.length - 1, 'nothing is read past the first tombstone');
  assert.ok(released, 'the stream is let go');
});

test('a failing stream is the error of the load', async () => {
  const failure = new Error('the export of brain stopped before its end line');
  const client = {
    brains: {
      get: async () => ({ edge_count: 1 }),
      async *export() {
        yield { kind: 'snapshot', data: snapshot('a') };
        throw failure;
      },
    },
  } as unknown as SnapgraphClient;
  await assert.rejects(
    loadBrainGraph(client, 'brain', () => {}),
    (err) => err === failure,
  );
});

test('linked snapshots start near each other: nodes are placed breadth-first along a spiral', () => {
  // A ring of 400 snapshots, each linked to the next two, as a chain of work often is.
  const graph = createGraph();
  const ids = Array.from({ length: 400 }, (_, i) => `s${i}`);
  // Listed in an order that has nothing to do with the links.
  addSnapshots(
    graph,
    ids.map((_, i) => snapshot(ids[(i * 7) % 400] as string)),
  );
  const links = ids.flatMap((id, i) =>
    [1, 2].map((step) => edge(`${id}-${step}`, id, ids[(i + step) % 400] as string, 'supports')),
  );
  addEdges(graph, links);
  const length = (e: string) => {
    const a = graph.getNodeAttributes(graph.source(e));
    const b = graph.getNodeAttributes(graph.target(e));
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  const meanLength = () => graph.edges().reduce((sum, e) => sum + length(e), 0) / graph.size;
  const before = meanLength();
  placeByBreadth(graph);
  const after = meanLength();
  const xs = graph.mapNodes((_n, a) => a.x);
  const spread = Math.max(...xs) - Math.min(...xs);
  assert.ok(after < before / 3, `edges got shorter: ${before.toFixed(0)} -> ${after.toFixed(0)}`);
  assert.ok(after < spread / 5, `an edge is short against the picture (${after.toFixed(0)} of ${spread.toFixed(0)})`);
  const positions = graph.mapNodes((_n, a) => `${a.x.toFixed(3)},${a.y.toFixed(3)}`);
  assert.equal(new Set(positions).size, 400, 'no two nodes share a spot');
});

test('edges between the same two snapshots, either way, are curved apart; a lone edge stays straight', async () => {
  const { curveParallelEdges, curvePairOf } = await import('../src/graph/parallel.js');
  const graph = createGraph();
  addSnapshots(graph, [snapshot('a'), snapshot('b'), snapshot('c')]);
  addEdges(graph, [
    edge('e1', 'a', 'b', 'evolved_from'),
    edge('e2', 'b', 'a', 'contradicts'),
    edge('e3', 'b', 'c', 'supports'),
  ]);
  curveParallelEdges(graph);
  const shape = (id: string) => [graph.getEdgeAttribute(id, 'type'), graph.getEdgeAttribute(id, 'curvature')];
  assert.deepEqual(shape('e3'), ['arrow', 0]);
  const [[t1, c1], [t2, c2]] = [shape('e1'), shape('e2')] as [[string, number], [string, number]];
  assert.deepEqual([t1, t2], ['curved', 'curved']);
  // Seen from a to b, the two bow to opposite sides: e2 runs b→a, so its own curvature has the sign of e1's.
  const fromA = (id: string, c: number) => (graph.source(id) === 'a' ? c : -c);
  assert.ok(fromA('e1', c1) * fromA('e2', c2) < 0, `${c1}, ${c2}`);
  // A third edge of the pair: the middle one straight, the other two either side.
  addEdges(graph, [edge('e4', 'a', 'b', 'supports')]);
  curvePairOf(graph, 'a', 'b');
  const curvatures = ['e1', 'e2', 'e4'].map((id) => fromA(id, graph.getEdgeAttribute(id, 'curvature') as number));
  assert.deepEqual(
    [...curvatures].sort((x, y) => x - y).map((c) => Math.sign(c)),
    [-1, 0, 1],
  );
  // Removing edges one by one leaves the last one straight, and the pair's end is no error.
  graph.dropEdge('e4');
  graph.dropEdge('e2');
  curvePairOf(graph, 'a', 'b');
  assert.deepEqual(shape('e1'), ['arrow', 0]);
  graph.dropEdge('e1');
  curvePairOf(graph, 'a', 'b');
});
