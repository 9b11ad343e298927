import { h } from '../dom.js';
import { AUTO_MIN_STRENGTH_DEFAULT, type Filters } from '../graph/build.js';
import { EDGE_COLOURS, EDGE_TYPES, NODE_COLOURS, SNAPSHOT_TYPES } from '../graph/style.js';

/**
 * The legend is the filter: each colour's entry is a checkbox that shows or hides that snapshot
 * or edge type; a tag choice and a minimum strength complete it. Nothing ticked means all shown.
 */
export function renderLegend(
  container: HTMLElement,
  filters: Filters,
  tags: readonly string[],
  onChange: (filters: Filters) => void,
): void {
  const toggled = (list: string[], value: string, on: boolean) =>
    on ? [...new Set([...list, value])] : list.filter((item) => item !== value);

  const typeBoxes = SNAPSHOT_TYPES.map((type) =>
    h(
      'label',
      {},
      h('input', {
        type: 'checkbox',
        name: 'snapshot-type',
        value: type,
        checked: filters.snapshotTypes.includes(type),
        onChange: (event: Event) =>
          onChange({
            ...filters,
            snapshotTypes: toggled(filters.snapshotTypes, type, (event.target as HTMLInputElement).checked),
          }),
      }),
      h('span', { className: 'swatch', style: { background: NODE_COLOURS[type] }, 'aria-hidden': 'true' }),
      type,
    ),
  );
  const edgeBoxes = EDGE_TYPES.map((type) =>
    h(
      'label',
      {},
      h('input', {
        type: 'checkbox',
        name: 'edge-type',
        value: type,
        checked: filters.edgeTypes.includes(type),
        onChange: (event: Event) =>
          onChange({
            ...filters,
            edgeTypes: toggled(filters.edgeTypes, type, (event.target as HTMLInputElement).checked),
          }),
      }),
      h('span', {
        className: type === 'contradicts' ? 'swatch line thick' : 'swatch line',
        style: { background: EDGE_COLOURS[type] },
        'aria-hidden': 'true',
      }),
      type,
    ),
  );
  const tagSelect = h(
    'select',
    {
      id: 'filter-tag',
      onChange: (event: Event) => onChange({ ...filters, tag: (event.target as HTMLSelectElement).value }),
    },
    h('option', { value: '' }, 'Any tag'),
    ...tags.slice(0, 500).map((tag) => h('option', { value: tag }, tag)),
  );
  tagSelect.value = filters.tag;
  const strength = h('input', {
    id: 'filter-strength',
    type: 'range',
    min: '0',
    max: '1',
    step: '0.05',
    value: String(filters.minStrength),
    onChange: (event: Event) => onChange({ ...filters, minStrength: Number((event.target as HTMLInputElement).value) }),
  });

  // Weak automatic edges are hidden by default (graph/build.ts): here they are shown again, all
  // at once with the box or from a chosen strength with the slider.
  const autoStrength = h('input', {
    id: 'filter-auto-strength',
    type: 'range',
    min: '0',
    max: '1',
    step: '0.05',
    value: String(filters.autoMinStrength),
    onChange: (event: Event) =>
      onChange({ ...filters, autoMinStrength: Number((event.target as HTMLInputElement).value) }),
  });
  const showAllAuto = h('input', {
    type: 'checkbox',
    id: 'filter-auto-all',
    checked: filters.autoMinStrength === 0,
    onChange: (event: Event) =>
      onChange({
        ...filters,
        autoMinStrength: (event.target as HTMLInputElement).checked ? 0 : AUTO_MIN_STRENGTH_DEFAULT,
      }),
  });

  container.replaceChildren(
    h('h3', {}, 'Legend and filters'),
    h('p', { className: 'muted' }, 'Tick types to show only those; none ticked shows all.'),
    h('fieldset', {}, h('legend', {}, 'Snapshot types'), ...typeBoxes),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Edge types'),
      ...edgeBoxes,
      h(
        'p',
        { className: 'muted note' },
        h('span', { className: 'swatch line dashed', 'aria-hidden': 'true' }),
        ' faded: made automatically',
      ),
    ),
    h('div', { className: 'field' }, h('label', { for: 'filter-tag' }, 'Tag'), tagSelect),
    h(
      'div',
      { className: 'field' },
      h('label', { for: 'filter-strength' }, `Minimum strength: ${filters.minStrength.toFixed(2)}`),
      strength,
    ),
    h(
      'fieldset',
      { className: 'auto-edges' },
      h('legend', {}, 'Automatic edges'),
      h('label', {}, showAllAuto, 'Show weak automatic edges too'),
      h('label', { for: 'filter-auto-strength' }, `Shown from strength: ${filters.autoMinStrength.toFixed(2)}`),
      autoStrength,
    ),
  );
}
