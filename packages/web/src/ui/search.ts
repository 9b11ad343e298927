import type { SearchResult } from '@snapgraph/client';
import { h } from '../dom.js';

/** The search results: each a list item holding the snapshot's name, its score and what contradicts it. */
export function renderResults(list: HTMLElement, results: readonly SearchResult[], onPick: (id: string) => void): void {
  list.replaceChildren(
    ...results.map((result) =>
      h(
        'li',
        { 'data-snapshot-id': result.id },
        h(
          'button',
          { type: 'button', onClick: () => onPick(result.id) },
          h('strong', {}, result.name),
          h('br'),
          h('span', { className: 'score' }, `score ${result.similarity} · ${result.type}`),
          result.contradicted_by.length > 0 &&
            h(
              'span',
              { className: 'contradicted' },
              h('br'),
              `contradicted by ${result.contradicted_by.map((c) => `${c.name} (${c.strength.toFixed(2)})`).join(', ')}`,
            ),
        ),
      ),
    ),
  );
}
