import { countVisible, type Filters, type SnapGraph } from '../graph/build.js';

/**
 * The graph's counts, in the status line and as data attributes on its region (which the browser
 * tests and the bench read): how many snapshots and edges the brain has, how many the filters
 * leave, and how many weak automatic edges are hidden, so a person knows they are there.
 */
export function showGraphCounts(region: HTMLElement, status: HTMLElement, graph: SnapGraph, filters: Filters): void {
  const visible = countVisible(graph, filters);
  region.dataset.nodes = String(graph.order);
  region.dataset.edges = String(graph.size);
  region.dataset.visibleNodes = String(visible.nodes);
  region.dataset.visibleEdges = String(visible.edges);
  region.dataset.weakAutoEdges = String(visible.weakAuto);
  let text = `${graph.order} snapshots and ${graph.size} edges`;
  if (visible.nodes !== graph.order || visible.edges !== graph.size) {
    text += `; showing ${visible.nodes} and ${visible.edges}`;
  }
  if (visible.weakAuto > 0) {
    text +=
      ` (${visible.weakAuto} automatic edge${visible.weakAuto === 1 ? '' : 's'} weaker than ` +
      `${filters.autoMinStrength.toFixed(2)} hidden: “Automatic edges” in the filters shows them)`;
  }
  status.textContent = text;
}
