import type { Brain, SnapgraphClient, Snapshot } from '@snapgraph/client';
import { createClient, describeError, storedKey } from './api.js';
import { byId, h } from './dom.js';
import {
  addEdges,
  addSnapshots,
  countVisible,
  sizeByDegree,
  tagsByUse,
  type Filters,
  type SnapGraph,
} from './graph/build.js';
import { loadBrainGraph } from './graph/load.js';
import { GraphView } from './graph/view.js';
import { crystallize, renderOutcome } from './ui/crystallize.js';
import { renderLegend } from './ui/legend.js';
import { SnapshotPanel } from './ui/panel.js';
import { renderResults } from './ui/search.js';
import { readViewState, writeViewState, type ViewState } from './view-state.js';
import './styles.css';

/**
 * The explorer: sign in with a key, pick a brain, see its graph; search, filter, open, edit and
 * link snapshots; crystallize text. Everything the view shows is in `state`, mirrored in the URL.
 */

const ui = {
  signin: byId<HTMLFormElement>('signin'),
  key: byId<HTMLInputElement>('api-key'),
  session: byId('session'),
  brain: byId<HTMLSelectElement>('brain'),
  reload: byId<HTMLButtonElement>('reload'),
  signout: byId<HTMLButtonElement>('signout'),
  message: byId('message'),
  search: byId<HTMLFormElement>('search'),
  searchInput: byId<HTMLInputElement>('search-input'),
  searchStatus: byId('search-status'),
  results: byId('results'),
  legend: byId('legend'),
  crystallize: byId<HTMLFormElement>('crystallize'),
  crystallizeText: byId<HTMLTextAreaElement>('crystallize-text'),
  crystallizeResult: byId('crystallize-result'),
  region: byId('graph-region'),
  graph: byId('graph'),
  graphStatus: byId('graph-status'),
  progress: byId<HTMLProgressElement>('graph-progress'),
  panel: byId('panel'),
};

let state: ViewState = readViewState(window.location.search);
let client: SnapgraphClient | undefined;
let view: GraphView | undefined;
let loading: AbortController | undefined;

const panel = new SnapshotPanel(ui.panel, {
  graph: () => view?.graph,
  select: (id) => void select(id, { fly: true }),
  save: async (id, update) => {
    const snapshot = await api().snapshots.update(id, update);
    if (view) {
      addSnapshots(view.graph, [snapshot]);
      view.refresh();
    }
    say(`Saved “${snapshot.name}”.`);
    panel.show(snapshot);
  },
  remove: async (id) => {
    await api().snapshots.delete(id);
    if (view?.graph.hasNode(id)) view.graph.dropNode(id);
    say('Snapshot deleted.');
    setState({ selected: '' });
    view?.setSelected('');
    panel.clear();
    showCounts();
  },
  expand: async (id) => {
    if (!view) return;
    const neighbours = new Set([id]);
    for await (const page of api().edges.pages({ snapshot_id: id, limit: 200 })) {
      const missing = page.data.flatMap((e) => [e.source_id, e.target_id]).filter((n) => !view!.graph.hasNode(n));
      for (const other of new Set(missing)) addSnapshots(view.graph, [await api().snapshots.get(other)]);
      addEdges(view.graph, page.data);
      for (const edge of page.data) neighbours.add(edge.source_id).add(edge.target_id);
    }
    view.setFocus(neighbours);
    view.flyTo([...neighbours]);
    say(
      `Showing the neighbourhood of “${view.graph.getNodeAttribute(id, 'label')}” (${neighbours.size} snapshots). Press Escape to see everything.`,
    );
    showCounts();
  },
  suggestions: async (id) => (await api().snapshots.suggestions(id, { limit: 5 })).data,
  createEdge: async (body) => {
    const edge = await api().edges.create(body as Parameters<SnapgraphClient['edges']['create']>[0]);
    if (view) {
      addEdges(view.graph, [edge]);
      sizeByDegree(view.graph);
      view.refresh();
    }
    say(`Edge ${edge.edge_type} created.`);
    await select(state.selected);
    showCounts();
    return edge;
  },
  deleteEdge: async (id) => {
    await api().edges.delete(id);
    if (view?.graph.hasEdge(id)) view.graph.dropEdge(id);
    say('Edge deleted.');
    await select(state.selected);
    showCounts();
  },
  rejectSuggestion: async ({ source_id, target_id, edge_type, strength }) => {
    // docs/auto-edges.md: a suggestion made and deleted is never suggested or auto-made again.
    const edge = await api().edges.create({ source_id, target_id, edge_type, strength });
    await api().edges.delete(edge.id);
    say('Suggestion rejected: it will not be suggested again.');
  },
  fail: (err) => say(describeError(err), true),
});

function api(): SnapgraphClient {
  if (!client) throw new Error('Sign in first.');
  return client;
}

function say(text: string, isError = false): void {
  ui.message.textContent = text;
  ui.message.classList.toggle('error', isError);
  ui.message.hidden = text === '';
}

function setState(change: Partial<ViewState>): void {
  state = { ...state, ...change };
  const url = `${window.location.pathname}${writeViewState(state)}`;
  if (url !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(null, '', url);
}

function showCounts(): void {
  if (!view) return;
  const { graph } = view;
  const visible = countVisible(graph, state.filters);
  ui.region.dataset.nodes = String(graph.order);
  ui.region.dataset.edges = String(graph.size);
  ui.region.dataset.visibleNodes = String(visible.nodes);
  ui.region.dataset.visibleEdges = String(visible.edges);
  ui.graphStatus.textContent =
    `${graph.order} snapshots and ${graph.size} edges` +
    (visible.nodes !== graph.order || visible.edges !== graph.size
      ? `; showing ${visible.nodes} and ${visible.edges}`
      : '');
}

function applyFilters(filters: Filters): void {
  setState({ filters });
  view?.setFilters(filters);
  renderLegend(ui.legend, filters, view ? tagsByUse(view.graph) : [], applyFilters);
  showCounts();
}

async function signIn(key: string): Promise<void> {
  const candidate = createClient(key, (seconds) =>
    say(`Rate limited (429): waiting ${seconds} s before trying again…`),
  );
  say('Signing in…');
  let brains: Brain[];
  try {
    brains = [];
    for await (const brain of candidate.brains.iterate({ limit: 100 })) brains.push(brain);
  } catch (err) {
    say(describeError(err), true);
    return;
  }
  storedKey.set(key);
  client = candidate;
  say('');
  ui.key.value = '';
  ui.signin.hidden = true;
  ui.session.hidden = false;
  ui.brain.replaceChildren(...brains.map((brain) => h('option', { value: brain.id }, brain.name)));
  const brainId = brains.some((b) => b.id === state.brain) ? state.brain : (brains[0]?.id ?? '');
  ui.brain.value = brainId;
  if (brainId) await openBrain(brainId);
  else ui.graphStatus.textContent = 'This key has no brain.';
}

function signOut(): void {
  storedKey.clear();
  client = undefined;
  loading?.abort();
  view?.kill();
  view = undefined;
  ui.signin.hidden = false;
  ui.session.hidden = true;
  ui.results.replaceChildren();
  panel.clear();
  ui.region.dataset.nodes = '0';
  ui.region.dataset.edges = '0';
  ui.graphStatus.textContent = 'Sign in with an API key to see a brain.';
  ui.key.focus();
}

async function openBrain(brainId: string): Promise<void> {
  // A link without a brain keeps its selection and query for the brain the key opens.
  const changed = state.brain !== '' && brainId !== state.brain;
  setState(changed ? { brain: brainId, selected: '', query: '' } : { brain: brainId });
  loading?.abort();
  loading = new AbortController();
  view?.kill();
  view = undefined;
  ui.region.dataset.loaded = 'false';
  ui.progress.hidden = false;
  ui.progress.value = 0;
  ui.graphStatus.textContent = 'Loading snapshots…';
  const started = performance.now();
  let graph: SnapGraph;
  try {
    graph = await loadBrainGraph(
      api(),
      brainId,
      (p) => {
        if (p.edgesTotal === undefined) ui.graphStatus.textContent = `Loading: ${p.snapshots} snapshots…`;
        else {
          ui.graphStatus.textContent = `Loading: ${p.snapshots} snapshots, ${p.edges} of ${p.edgesTotal} edges…`;
          ui.progress.value = p.edgesTotal ? p.edges / p.edgesTotal : 1;
        }
      },
      loading.signal,
    );
  } catch (err) {
    if ((err as Error).name !== 'AbortError') {
      say(describeError(err), true);
      ui.graphStatus.textContent = 'The graph could not be loaded.';
    }
    return;
  } finally {
    ui.progress.hidden = true;
  }
  const drawing = performance.now();
  view = new GraphView(graph, ui.graph, state.filters);
  view.on('clickNode', (node) => void select(node));
  view.on('clickStage', () => void select(''));
  ui.region.dataset.layout = 'running';
  view.startLayout(() => (ui.region.dataset.layout = 'done'));
  renderLegend(ui.legend, state.filters, tagsByUse(graph), applyFilters);
  showCounts();
  performance.measure('snapgraph:draw', { start: drawing, end: performance.now() });
  ui.region.dataset.loaded = 'true';
  ui.region.dataset.loadMs = String(Math.round(performance.now() - started));
  if (state.query) await search(state.query);
  if (state.selected) await select(state.selected, { fly: true });
}

async function select(id: string, options: { fly?: boolean } = {}): Promise<void> {
  setState({ selected: id });
  view?.setSelected(id);
  if (!id) {
    panel.clear();
    return;
  }
  let snapshot: Snapshot;
  try {
    snapshot = await api().snapshots.get(id);
  } catch (err) {
    say(describeError(err), true);
    return;
  }
  panel.show(snapshot);
  if (options.fly) view?.flyTo([id]);
}

async function search(query: string): Promise<void> {
  setState({ query });
  ui.searchInput.value = query;
  if (!query.trim()) {
    ui.results.replaceChildren();
    ui.searchStatus.textContent = '';
    view?.setHighlighted([]);
    ui.region.dataset.highlighted = '0';
    return;
  }
  ui.searchStatus.textContent = 'Searching…';
  try {
    const page = await api().snapshots.search({ q: query, brain_id: state.brain, limit: 20 });
    renderResults(ui.results, page.data, (id) => void select(id, { fly: true }).then(() => ui.panel.focus()));
    const ids = page.data.map((result) => result.id);
    view?.setHighlighted(ids);
    view?.flyTo(ids);
    ui.region.dataset.highlighted = String(ids.length);
    ui.searchStatus.textContent = `${page.data.length} result${page.data.length === 1 ? '' : 's'} for “${query}”, highlighted in the graph.`;
  } catch (err) {
    ui.searchStatus.textContent = '';
    say(describeError(err), true);
  }
}

ui.signin.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = ui.key.value.trim();
  if (key) void signIn(key);
});
ui.signout.addEventListener('click', signOut);
ui.brain.addEventListener('change', () => void openBrain(ui.brain.value));
ui.reload.addEventListener('click', () => void openBrain(state.brain));
ui.search.addEventListener('submit', (event) => {
  event.preventDefault();
  void search(ui.searchInput.value);
});
ui.crystallize.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = ui.crystallizeText.value.trim();
  if (text.length < 50) {
    say('Paste at least 50 characters to crystallize.', true);
    return;
  }
  ui.crystallizeResult.textContent = 'Crystallizing…';
  void crystallize(api(), state.brain, text).then(
    async (outcome) => {
      renderOutcome(ui.crystallizeResult, outcome);
      ui.crystallizeText.value = '';
      await openBrain(state.brain);
    },
    (err: unknown) => {
      ui.crystallizeResult.textContent = '';
      say(describeError(err), true);
    },
  );
});
document.addEventListener('keydown', (event) => {
  const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement;
  if (event.key === '/' && !typing) {
    event.preventDefault();
    ui.searchInput.focus();
  } else if (event.key === 'Escape') {
    view?.setFocus(undefined);
    showCounts();
    if (!typing) void select('');
  }
});

renderLegend(ui.legend, state.filters, [], applyFilters);
ui.searchInput.value = state.query;
const key = storedKey.get();
if (key) void signIn(key);
else ui.key.focus();
