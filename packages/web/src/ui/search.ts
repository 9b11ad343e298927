import type { SearchResult } from '@snapgraph/client';
import { h } from '../dom.js';
import { rankColour } from '../graph/style.js';

/**
 * The search results: each a list item holding its rank (in the colour its node has in the
 * graph), the snapshot's name, its score and what contradicts it.
 */
export function renderResults(list: HTMLElement, results: readonly SearchResult[], onPick: (id: string) => void): void {
  list.replaceChildren(
    ...results.map((result, rank) =>
      h(
        'li',
        { 'data-snapshot-id': result.id },
        h(
          'button',
          { type: 'button', onClick: () => onPick(result.id) },
          h(
            'span',
            { className: 'rank', style: { background: rankColour(rank) }, 'aria-hidden': 'true' },
            String(rank + 1),
          ),
          h('strong', {}, result.name),
          h('span', { className: 'score' }, `score ${result.similarity} · ${result.type}`),
          result.contradicted_by.length > 0 &&
            h(
              'span',
              { className: 'contradicted' },
              `contradicted by ${result.contradicted_by.map((c) => `${c.name} (${c.strength.toFixed(2)})`).join(', ')}`,
            ),
        ),
      ),
    ),
  );
}
