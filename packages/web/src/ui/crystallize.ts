import type { SnapgraphClient } from '@snapgraph/client';
import { h } from '../dom.js';
import { copyableId } from './panel-fields.js';

export interface CrystallizeOutcome {
  count: number;
  ids: string[];
  names: string[];
  edges: number;
  runId: string;
  model: string;
  /** Insights found in the text, after merging the text's own near-duplicates. */
  insights: number;
  /** Of those, how many the brain already held (so none was made for them). */
  known: number;
}

/** POST /v1/crystallize through the client's typed `request` (it has no method of its own yet). */
export async function crystallize(client: SnapgraphClient, brainId: string, text: string): Promise<CrystallizeOutcome> {
  const answer = await client.request('post', '/v1/crystallize', { body: { text, brain_id: brainId } });
  // Without `Prefer: respond-async` the run answers 201 with its result, never a job.
  if (!('run_id' in answer)) throw new Error('The server queued the run as a job; reload the brain in a moment.');
  const { data, meta, usage, run_id } = answer;
  return {
    count: data.count,
    ids: data.snapshots.map((snapshot) => snapshot.id),
    names: data.snapshots.map((snapshot) => snapshot.name),
    edges: data.edges.length,
    runId: run_id,
    model: usage.model,
    insights: meta.refinedCount,
    known: Math.max(0, meta.refinedCount - meta.finalCount),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a run did, in a sentence, and what to do when it made nothing. */
export function outcomeSentence(outcome: CrystallizeOutcome): string {
  if (outcome.insights === 0) {
    return 'No insights found in this text: nothing was added. Try a longer passage that states beliefs, rules or lessons.';
  }
  if (outcome.count === 0) {
    const all = outcome.insights === 1 ? 'the 1 insight was' : `all ${outcome.insights} insights were`;
    return `Nothing new: ${all} already in this brain. Paste text with ideas the brain does not hold yet.`;
  }
  const known = outcome.known > 0 ? `; ${outcome.known} already in this brain were skipped` : '';
  return (
    `Added ${plural(outcome.count, 'new snapshot')} and ${plural(outcome.edges, 'automatic edge')} ` +
    `from ${plural(outcome.insights, 'insight')}${known}. They are highlighted in the graph.`
  );
}

export function renderOutcome(container: HTMLElement, outcome: CrystallizeOutcome, pick: (id: string) => void): void {
  container.replaceChildren(
    h(
      'div',
      { className: outcome.count === 0 ? 'outcome none' : 'outcome' },
      h('p', {}, outcomeSentence(outcome)),
      outcome.count > 0 &&
        h(
          'ul',
          { 'aria-label': 'Crystallized snapshots' },
          ...outcome.ids.map((id, i) =>
            h(
              'li',
              {},
              h(
                'button',
                { type: 'button', className: 'link-button', onClick: () => pick(id) },
                outcome.names[i] ?? id,
              ),
            ),
          ),
        ),
      h('p', { className: 'muted' }, `Run (${outcome.model}): `, copyableId(outcome.runId)),
    ),
  );
}
