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
  NO_FILTERS,
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
  assert.deepEqual(countVisible(graph, NO_FILTERS), { nodes: 3, edges: 2 });
  assert.deepEqual(countVisible(graph, { ...NO_FILTERS, snapshotTypes: ['Rule'] }), { nodes: 2, edges: 1 });
  assert.deepEqual(countVisible(graph, { ...NO_FILTERS, tag: 'habits' }), { nodes: 2, edges: 1 });
  assert.deepEqual(countVisible(graph, { ...NO_FILTERS, edgeTypes: ['contradicts'] }), { nodes: 3, edges: 1 });
  assert.deepEqual(countVisible(graph, { ...NO_FILTERS, minStrength: 0.5 }), { nodes: 3, edges: 1 });
  assert.equal(
    edgePasses(graph.getEdgeAttributes('2'), { ...NO_FILTERS, minStrength: 0.3 }),
    true,
    'at the minimum counts',
  );
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
    filters: { snapshotTypes: ['Rule', 'Model'], tag: 'habits', edgeTypes: ['contradicts'], minStrength: 0.4 },
  };
  const search = writeViewState(state);
  assert.deepEqual(readViewState(search), state);
  assert.doesNotMatch(search, /key|sg_/);
  assert.equal(writeViewState(readViewState('')), '');
  assert.equal(readViewState('?min=7').filters.minStrength, 1);
});

test('loading walks snapshots and edges at once, and keeps edges whose ends arrive later', async () => {
  // Edge pages come back before the snapshot pages they point into, as they can when both
  // lists are walked at the same time.
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
  const client = {
    snapshots: {
      async *pages() {
        for (const ids of [['a', 'b'], ['c']]) {
          await tick();
          await tick();
          yield { data: ids.map((id) => snapshot(id)) };
        }
      },
    },
    edges: {
      async *pages() {
        yield { data: [edge('e1', 'a', 'c', 'supports')], total: 2 };
        yield { data: [edge('e2', 'c', 'b', 'contradicts')], total: 2 };
      },
    },
  } as unknown as SnapgraphClient;
  const seen: LoadProgress[] = [];
  const graph = await loadBrainGraph(client, 'brain', (p) => seen.push({ ...p }));
  assert.equal(graph.order, 3);
  assert.deepEqual(graph.edges().sort(), ['e1', 'e2']);
  assert.ok(graph.getNodeAttribute('c', 'size') > graph.getNodeAttribute('a', 'size'), 'sizes follow degree');
  assert.deepEqual(seen.at(-1), { snapshots: 3, edges: 2, edgesTotal: 2 });
});
