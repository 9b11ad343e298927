import type { SnapgraphClient } from '@snapgraph/client';
import { describeError } from './api.js';
import { addEdges, addSnapshots, sizeByDegree } from './graph/build.js';
import type { GraphView } from './graph/view.js';
import type { PanelActions, SnapshotPanel } from './ui/panel.js';

/** What the panel's actions need of the explorer (main.ts). */
export interface ExplorerContext {
  api(): SnapgraphClient;
  view(): GraphView | undefined;
  panel(): SnapshotPanel;
  selected(): string;
  select(id: string, fly: boolean): Promise<void>;
  say(text: string, isError?: boolean): void;
  showCounts(): void;
}

/** The snapshot panel's actions: each an API call, then the graph and the page brought up to date. */
export function panelActions(ctx: ExplorerContext): PanelActions {
  const { api, view, say } = ctx;
  return {
    graph: () => view()?.graph,
    select: (id) => void ctx.select(id, true),
    save: async (id, update) => {
      const snapshot = await api().snapshots.update(id, update);
      const shown = view();
      if (shown) {
        addSnapshots(shown.graph, [snapshot]);
        shown.refresh();
      }
      say(`Saved “${snapshot.name}”.`);
      ctx.panel().show(snapshot);
    },
    remove: async (id) => {
      await api().snapshots.delete(id);
      const shown = view();
      if (shown?.graph.hasNode(id)) shown.graph.dropNode(id);
      say('Snapshot deleted.');
      await ctx.select('', false);
      ctx.showCounts();
    },
    expand: async (id) => {
      const shown = view();
      if (!shown) return;
      const { graph } = shown;
      const neighbours = new Set([id]);
      for await (const page of api().edges.pages({ snapshot_id: id, limit: 200 })) {
        const missing = page.data.flatMap((e) => [e.source_id, e.target_id]).filter((n) => !graph.hasNode(n));
        for (const other of new Set(missing)) addSnapshots(graph, [await api().snapshots.get(other)]);
        addEdges(graph, page.data);
        for (const edge of page.data) neighbours.add(edge.source_id).add(edge.target_id);
      }
      shown.setFocus(neighbours);
      shown.flyTo([...neighbours]);
      say(
        `Showing the neighbourhood of “${graph.getNodeAttribute(id, 'label')}” (${neighbours.size} snapshots). Press Escape to see everything.`,
      );
      ctx.showCounts();
    },
    suggestions: async (id) => (await api().snapshots.suggestions(id, { limit: 5 })).data,
    createEdge: async (body) => {
      const edge = await api().edges.create(body as Parameters<SnapgraphClient['edges']['create']>[0]);
      const shown = view();
      if (shown) {
        addEdges(shown.graph, [edge]);
        sizeByDegree(shown.graph);
        shown.refresh();
      }
      say(`Edge ${edge.edge_type} created.`);
      await ctx.select(ctx.selected(), false);
      ctx.showCounts();
      return edge;
    },
    deleteEdge: async (id) => {
      await api().edges.delete(id);
      const shown = view();
      if (shown?.graph.hasEdge(id)) shown.graph.dropEdge(id);
      say('Edge deleted.');
      await ctx.select(ctx.selected(), false);
      ctx.showCounts();
    },
    rejectSuggestion: async ({ source_id, target_id, edge_type, strength }) => {
      // docs/auto-edges.md: a suggestion made and deleted is never suggested or auto-made again.
      const edge = await api().edges.create({ source_id, target_id, edge_type, strength });
      await api().edges.delete(edge.id);
      say('Suggestion rejected: it will not be suggested again.');
    },
    fail: (err) => say(describeError(err), true),
    tell: (text) => say(text),
  };
}
