import type { Brain, SnapgraphClient, Snapshot } from '@snapgraph/client';
import { createClient, describeError, storedKey } from './api.js';
import { byId } from './dom.js';
import { tagsByUse, type Filters, type SnapGraph } from './graph/build.js';
import { loadBrainGraph } from './graph/load.js';
import { GraphView } from './graph/view.js';
import { defaultBrainId } from './default-brain.js';
import { currentTheme, onThemeChange } from './theme.js';
import { crystallize, renderOutcome } from './ui/crystallize.js';
import { renderLegend } from './ui/legend.js';
import { showGraphCounts } from './ui/graph-status.js';
import { SnapshotPanel } from './ui/panel.js';
import { panelActions } from './panel-actions.js';
import { renderResults } from './ui/search.js';
import { BrainPicker, emptyGraphMessage } from './ui/brain-picker.js';
import { memoriesView } from './ui/memories.js';
import { readViewState, writeViewState, type ViewState } from './view-state.js';
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/panel.css';

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
  fit: byId<HTMLButtonElement>('fit'),
  panel: byId('panel'),
  memories: byId('memories'),
};

let state: ViewState = readViewState(window.location.search);
let client: SnapgraphClient | undefined;
let view: GraphView | undefined;
let loading: AbortController | undefined;
const picker = new BrainPicker(ui.brain);
const memories = memoriesView(ui.memories, () => api(), say);

const panel: SnapshotPanel = new SnapshotPanel(
  ui.panel,
  panelActions({
    api: () => api(),
    view: () => view,
    panel: () => panel,
    selected: () => state.selected,
    select: (id, fly) => select(id, { fly }),
    say,
    showCounts: () => afterChange(),
  }),
);

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
  if (view) showGraphCounts(ui.region, ui.graphStatus, view.graph, state.filters);
}

/** After any change the page makes, the picker and the memories view say what the brain holds now. */
function afterChange(): void {
  showCounts();
  void refreshCounts();
}

async function refreshCounts(): Promise<void> {
  const brain = await picker.refresh(api(), state.brain).catch((err: unknown) => say(describeError(err), true));
  if (brain) ui.region.dataset.memories = String(brain.memory_count);
}

function applyFilters(filters: Filters): void {
  setState({ filters });
  view?.setFilters(filters);
  renderLegend(ui.legend, filters, view ? tagsByUse(view.graph) : [], applyFilters);
  showCounts();
}

const RATE_LIMITED = 'Rate limited (429):';

async function signIn(key: string): Promise<void> {
  const candidate = createClient(key, (seconds) => {
    if (seconds > 0) say(`${RATE_LIMITED} waiting ${seconds} s before trying again…`);
    else if (ui.message.textContent?.startsWith(RATE_LIMITED)) say('');
  });
  say('Signing in…');
  let brains: Brain[];
  let home: string | undefined;
  try {
    brains = [];
    for await (const brain of candidate.brains.iterate({ limit: 100 })) brains.push(brain);
    home = await defaultBrainId(candidate, brains);
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
  // The key's default brain first in the picker, and the one opened unless the URL names another.
  const brainId = picker.fill(brains, home, state.brain);
  panel.clear(true);
  if (brainId) await openBrain(brainId);
  else ui.graphStatus.textContent = 'This key has no brain yet. Create one with: npx snapgraph brains create';
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
  ui.searchStatus.textContent = '';
  ui.crystallizeResult.replaceChildren();
  memories.clear();
  panel.clear(false);
  ui.fit.hidden = true;
  ui.region.dataset.nodes = '0';
  ui.region.dataset.edges = '0';
  ui.region.dataset.loaded = 'false';
  ui.graphStatus.textContent =
    'Sign in with an API key to see a brain. No key yet? Create one with: npx snapgraph keys create';
  ui.key.focus();
}

async function openBrain(brainId: string): Promise<void> {
  // Another brain: its selection goes, the query stays (in the URL too) and is run again in the
  // new brain once it is loaded; the old brain's results never stand beside the new graph.
  const changed = state.brain !== '' && brainId !== state.brain;
  setState(changed ? { brain: brainId, selected: '' } : { brain: brainId });
  ui.results.replaceChildren();
  ui.searchStatus.textContent = state.query ? `Searching this brain for “${state.query}”…` : '';
  const held = picker.brain(brainId);
  void memories.load(brainId, held?.memory_count ?? 0);
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
      ui.graphStatus.textContent = 'The graph could not be loaded. Press Reload to try again.';
    }
    return;
  } finally {
    ui.progress.hidden = true;
  }
  // A tag no snapshot carries (a link shared before it was removed) would show nothing, and the
  // tag list has no entry to choose it from: it is dropped, as unknown types are on reading the URL.
  const tags = tagsByUse(graph);
  if (state.filters.tag && !tags.includes(state.filters.tag)) setState({ filters: { ...state.filters, tag: '' } });
  const drawing = performance.now();
  view = new GraphView(graph, ui.graph, state.filters, currentTheme());
  view.on('clickNode', (node) => void select(node));
  view.on('clickStage', () => {
    view?.setFresh([]);
    void select('');
  });
  ui.fit.hidden = graph.order === 0;
  ui.region.dataset.layout = 'running';
  view.startLayout(() => (ui.region.dataset.layout = 'done'));
  renderLegend(ui.legend, state.filters, tags, applyFilters);
  showCounts();
  performance.measure('snapgraph:draw', { start: drawing, end: performance.now() });
  ui.region.dataset.loaded = 'true';
  ui.region.dataset.loadMs = String(Math.round(performance.now() - started));
  ui.region.dataset.memories = String(held?.memory_count ?? 0);
  if (graph.order === 0) ui.graphStatus.textContent = emptyGraphMessage(held?.memory_count ?? 0);
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
  if (options.fly) view?.flyTo(view.neighbourhood(id));
}

async function search(query: string): Promise<void> {
  setState({ query });
  ui.searchInput.value = query;
  if (!query.trim()) {
    ui.results.replaceChildren();
    ui.searchStatus.textContent = '';
    view?.setHits([]);
    ui.region.dataset.highlighted = '0';
    return;
  }
  ui.searchStatus.textContent = 'Searching…';
  try {
    const page = await api().snapshots.search({ q: query, brain_id: state.brain, limit: 20 });
    renderResults(ui.results, page.data, (id) => void select(id, { fly: true }).then(() => ui.panel.focus()));
    const ids = page.data.map((result) => result.id);
    view?.setHits(ids);
    view?.flyTo(ids);
    ui.region.dataset.highlighted = String(ids.length);
    ui.searchStatus.textContent =
      ids.length === 0
        ? `Nothing matches “${query}”. Try other or fewer words.`
        : `${ids.length} result${ids.length === 1 ? '' : 's'} for “${query}”, numbered by rank in the graph.`;
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
  ui.crystallizeResult.textContent = 'Crystallizing: reading the text for insights…';
  void crystallize(api(), state.brain, text).then(
    async (outcome) => {
      renderOutcome(ui.crystallizeResult, outcome, (id) => void select(id, { fly: true }));
      if (outcome.count === 0) return;
      ui.crystallizeText.value = '';
      await refreshCounts();
      await openBrain(state.brain);
      // Where the new snapshots went: highlighted, and the camera on them.
      view?.setFresh(outcome.ids);
      view?.flyTo(outcome.ids);
      ui.region.dataset.fresh = String(outcome.ids.length);
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

ui.fit.addEventListener('click', () => view?.fitAll());
onThemeChange((theme) => view?.setTheme(theme));
// A handle for the browser tests and the bench: the live view (its sigma renderer and labels).
Object.defineProperty(window, 'snapgraphExplorer', { value: { view: () => view } });

// The URL as read: without the filter values the page does not know.
setState({});
renderLegend(ui.legend, state.filters, [], applyFilters);
panel.clear(false);
ui.searchInput.value = state.query;
const key = storedKey.get();
if (key) void signIn(key);
else ui.key.focus();
