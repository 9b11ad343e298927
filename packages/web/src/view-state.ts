import { AUTO_MIN_STRENGTH_DEFAULT, DEFAULT_FILTERS, type Filters } from './graph/build.js';
import { EDGE_TYPES, SNAPSHOT_TYPES } from './graph/style.js';

/**
 * The view's state in the URL's query, so a view can be shared and survives a reload: brain,
 * selected snapshot, filters and search query. Never the API key (that stays in sessionStorage).
 */
export interface ViewState {
  brain: string;
  selected: string;
  query: string;
  filters: Filters;
}

export const EMPTY_VIEW: ViewState = { brain: '', selected: '', query: '', filters: DEFAULT_FILTERS };

const list = (value: string | null): string[] => (value ? value.split(',').filter(Boolean) : []);

/**
 * The values of a list the page knows, spelled as it does (`belief` is Belief); the others are
 * dropped. An unknown type ticks no box, so kept it would hide every snapshot behind a legend
 * that says none is ticked, with no box to untick.
 */
function known(values: string[], names: readonly string[]): string[] {
  const byLowerCase = new Map(names.map((name) => [name.toLowerCase(), name]));
  const kept = values.flatMap((value) => byLowerCase.get(value.toLowerCase()) ?? []);
  return [...new Set(kept)];
}

export function readViewState(search: string): ViewState {
  const params = new URLSearchParams(search);
  const min = Number(params.get('min') ?? '0');
  const auto = Number(params.get('auto') ?? AUTO_MIN_STRENGTH_DEFAULT);
  return {
    brain: params.get('brain') ?? '',
    selected: params.get('snapshot') ?? '',
    query: params.get('q') ?? '',
    filters: {
      snapshotTypes: known(list(params.get('types')), SNAPSHOT_TYPES),
      tag: params.get('tag') ?? '',
      edgeTypes: known(list(params.get('edges')), EDGE_TYPES),
      minStrength: Number.isFinite(min) ? Math.max(0, Math.min(1, min)) : 0,
      autoMinStrength: Number.isFinite(auto) ? Math.max(0, Math.min(1, auto)) : AUTO_MIN_STRENGTH_DEFAULT,
    },
  };
}

export function writeViewState(state: ViewState): string {
  const params = new URLSearchParams();
  if (state.brain) params.set('brain', state.brain);
  if (state.selected) params.set('snapshot', state.selected);
  if (state.query) params.set('q', state.query);
  if (state.filters.snapshotTypes.length) params.set('types', state.filters.snapshotTypes.join(','));
  if (state.filters.tag) params.set('tag', state.filters.tag);
  if (state.filters.edgeTypes.length) params.set('edges', state.filters.edgeTypes.join(','));
  if (state.filters.minStrength > 0) params.set('min', String(state.filters.minStrength));
  if (state.filters.autoMinStrength !== AUTO_MIN_STRENGTH_DEFAULT)
    params.set('auto', String(state.filters.autoMinStrength));
  const text = params.toString();
  return text ? `?${text}` : '';
}
