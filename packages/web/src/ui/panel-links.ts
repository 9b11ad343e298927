import type { Suggestion } from '@snapgraph/client';
import { h } from '../dom.js';
import { EDGE_TYPES } from '../graph/style.js';
import type { PanelActions } from './panel-actions-type.js';

/** The panel's linking parts: suggested edges to accept or reject, and the new-edge form. */

type Run = (work: () => Promise<unknown>) => Promise<void>;
type Name = (id: string) => string;

export async function loadSuggestions(
  id: string,
  list: HTMLElement,
  name: Name,
  actions: PanelActions,
  run: Run,
): Promise<void> {
  list.replaceChildren(h('li', { className: 'muted' }, 'Looking for snapshots to link…'));
  let suggestions: Suggestion[];
  try {
    suggestions = await actions.suggestions(id);
  } catch (err) {
    list.replaceChildren();
    actions.fail(err);
    return;
  }
  if (suggestions.length === 0) {
    list.replaceChildren(
      h('li', { className: 'muted' }, 'No suggestions: nothing in this brain is close enough to link to it.'),
    );
    return;
  }
  list.replaceChildren(
    ...suggestions.map((suggestion) => {
      const other = suggestion.source_id === id ? suggestion.target_id : suggestion.source_id;
      const item: HTMLLIElement = h(
        'li',
        {},
        h('span', { className: 'edge-type' }, suggestion.edge_type),
        `(${suggestion.strength.toFixed(2)}) ${name(other)} `,
        h(
          'button',
          {
            type: 'button',
            onClick: () =>
              run(async () => {
                await actions.createEdge({
                  source_id: suggestion.source_id,
                  target_id: suggestion.target_id,
                  edge_type: suggestion.edge_type,
                  strength: suggestion.strength,
                });
                item.remove();
              }),
          },
          'Accept',
        ),
        h(
          'button',
          {
            type: 'button',
            className: 'quiet',
            // Named "dismiss" too: the word users of other graph tools look for.
            'aria-label': 'Reject (dismiss for good)',
            onClick: () =>
              run(async () => {
                await actions.rejectSuggestion(suggestion);
                item.remove();
              }),
          },
          'Reject',
        ),
      );
      return item;
    }),
  );
}

export function edgeForm(
  source: string,
  target: string,
  name: Name,
  actions: PanelActions,
  run: Run,
  done: () => void,
): HTMLFormElement {
  const type = h('select', { id: 'new-edge-type' }, ...EDGE_TYPES.map((t) => h('option', { value: t }, t)));
  const strength = h('input', {
    id: 'new-edge-strength',
    type: 'number',
    min: '0',
    max: '1',
    step: '0.05',
    value: '0.5',
  });
  const label = h('input', { id: 'new-edge-label', type: 'text' });
  const form = h(
    'form',
    { className: 'edit', 'aria-label': 'New edge' },
    h('h3', {}, `New edge: ${name(source)} → this`),
    h('label', { for: 'new-edge-type' }, 'Edge type'),
    type,
    h('label', { for: 'new-edge-strength' }, 'Strength'),
    strength,
    h('label', { for: 'new-edge-label' }, 'Label'),
    label,
    h('div', { className: 'actions' }, h('button', { type: 'submit', className: 'primary' }, 'Create edge')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void run(async () => {
      await actions.createEdge({
        source_id: source,
        target_id: target,
        edge_type: type.value,
        strength: Number(strength.value),
        ...(label.value.trim() ? { label: label.value.trim() } : {}),
      });
      done();
    });
  });
  return form;
}
