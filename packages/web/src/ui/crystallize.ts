import type { SnapgraphClient } from '@snapgraph/client';
import { h } from '../dom.js';

export interface CrystallizeOutcome {
  count: number;
  names: string[];
  edges: number;
  runId: string;
  model: string;
}

/** POST /v1/crystallize through the client's typed `request` (it has no method of its own yet). */
export async function crystallize(client: SnapgraphClient, brainId: string, text: string): Promise<CrystallizeOutcome> {
  const answer = await client.request('post', '/v1/crystallize', { body: { text, brain_id: brainId } });
  // Without `Prefer: respond-async` the run answers 201 with its result, never a job.
  if (!('run_id' in answer)) throw new Error('The server queued the run as a job; reload the brain in a moment.');
  const result = answer;
  return {
    count: result.data.count,
    names: result.data.snapshots.map((snapshot) => snapshot.name),
    edges: result.data.edges.length,
    runId: result.run_id,
    model: result.usage.model,
  };
}

export function renderOutcome(container: HTMLElement, outcome: CrystallizeOutcome): void {
  container.replaceChildren(
    h(
      'p',
      {},
      `Run ${outcome.runId}: ${outcome.count} snapshot${outcome.count === 1 ? '' : 's'} and ${outcome.edges} automatic edge${outcome.edges === 1 ? '' : 's'} made (${outcome.model}).`,
    ),
    h(
      'ul',
      { className: 'edges', 'aria-label': 'Crystallized snapshots' },
      ...outcome.names.map((name) => h('li', {}, name)),
    ),
  );
}
