/**
 * A small brain that reads like a real one, for the screenshots (scripts/screenshots.ts) and the
 * browser tests: 25 snapshots on habits, sleep, learning and work, in a few clusters, with
 * contradictions and an evolved_from chain.
 */
export interface SampleSnapshot {
  handle: string;
  name: string;
  core: string;
  type: 'Belief' | 'Model' | 'Rule' | 'Conviction' | 'Principle';
  significance: number;
  tags: string[];
}

const s = (
  handle: string,
  type: SampleSnapshot['type'],
  significance: number,
  name: string,
  core: string,
  tags: string[],
): SampleSnapshot => ({ handle, name, core, type, significance, tags });

export const SAMPLE_SNAPSHOTS: SampleSnapshot[] = [
  s('compound', 'Principle', 0.9, 'Habits compound', 'Small consistent habits compound into large results over years', [
    'habits',
  ]),
  s('identity', 'Belief', 0.7, 'Identity drives habits', 'Habits stick when they express who you believe you are', [
    'habits',
  ]),
  s('cue', 'Model', 0.6, 'Cue, craving, response, reward', 'A habit is a loop of cue, craving, response and reward', [
    'habits',
  ]),
  s('two-min', 'Rule', 0.5, 'Two-minute rule', 'Start a new habit with a version that takes two minutes', ['habits']),
  s('env', 'Principle', 0.6, 'Design the environment', 'Make good habits obvious and bad ones invisible', ['habits']),
  s('streak', 'Rule', 0.3, 'Never miss twice', 'Missing once is an accident; missing twice starts a new habit', [
    'habits',
  ]),
  s('sleep', 'Conviction', 0.85, 'Sleep first', 'Sleep protects learning, memory and mood', ['health']),
  s('grind', 'Belief', 0.4, 'Grind culture', 'Working through the night beats sleeping', ['work']),
  s('caffeine', 'Rule', 0.35, 'No coffee after noon', 'Caffeine after noon cuts deep sleep', ['health']),
  s('exercise', 'Model', 0.55, 'Exercise improves sleep', 'Daytime exercise deepens sleep the following night', [
    'health',
  ]),
  s('light', 'Rule', 0.3, 'Morning light', 'Daylight in the first hour sets the body clock', ['health']),
  s('spaced', 'Model', 0.75, 'Spaced repetition', 'Reviewing at growing intervals keeps memories for years', [
    'learning',
  ]),
  s(
    'retrieval',
    'Principle',
    0.7,
    'Retrieval beats rereading',
    'Recalling from memory teaches more than reading again',
    ['learning'],
  ),
  s('feynman', 'Rule', 0.45, 'Explain it simply', 'If you cannot explain it simply you do not understand it yet', [
    'learning',
  ]),
  s('interleave', 'Model', 0.4, 'Interleaving', 'Mixing kinds of problems builds transfer better than blocks', [
    'learning',
  ]),
  s('cram', 'Belief', 0.25, 'Cramming works', 'One long session the night before is enough to learn', ['learning']),
  s('deep', 'Principle', 0.8, 'Deep work', 'Hard problems need long uninterrupted blocks of time', ['work']),
  s('meetings', 'Belief', 0.45, 'Meetings drain energy', 'Meetings after lunch drain energy more than anything else', [
    'work',
  ]),
  s('batch', 'Rule', 0.4, 'Batch shallow work', 'Answer mail and messages in two fixed windows a day', ['work']),
  s('multitask', 'Belief', 0.3, 'Multitasking is efficient', 'Doing several things at once gets more done', ['work']),
  s('plans1', 'Rule', 0.3, 'Plan every hour', 'Plan every hour of the week in detail', ['planning']),
  s('plans2', 'Rule', 0.45, 'Plan the week loosely', 'Plan the week loosely and review it each morning', ['planning']),
  s('plans3', 'Principle', 0.65, 'Plan outcomes, not hours', 'Plan three outcomes a week and let the hours follow', [
    'planning',
  ]),
  s('journal', 'Rule', 0.5, 'Write every morning', 'Writing every morning clears the head for the day', [
    'habits',
    'planning',
  ]),
  s('review', 'Model', 0.5, 'Weekly review', 'A weekly review closes open loops and resets priorities', ['planning']),
];

/** [source, target, type, strength] */
export const SAMPLE_EDGES: [string, string, string, number][] = [
  ['identity', 'compound', 'supports', 0.7],
  ['cue', 'compound', 'elaborates', 0.6],
  ['two-min', 'compound', 'supports', 0.6],
  ['env', 'cue', 'elaborates', 0.7],
  ['two-min', 'identity', 'supports', 0.5],
  ['streak', 'compound', 'supports', 0.5],
  ['journal', 'compound', 'related_to', 0.4],
  ['sleep', 'compound', 'supports', 0.5],
  ['grind', 'sleep', 'contradicts', 0.9],
  ['caffeine', 'sleep', 'supports', 0.7],
  ['exercise', 'sleep', 'supports', 0.8],
  ['light', 'sleep', 'supports', 0.6],
  ['sleep', 'spaced', 'supports', 0.5],
  ['retrieval', 'spaced', 'elaborates', 0.8],
  ['feynman', 'retrieval', 'related_to', 0.5],
  ['interleave', 'retrieval', 'related_to', 0.5],
  ['cram', 'spaced', 'contradicts', 0.85],
  ['grind', 'deep', 'related_to', 0.3],
  ['batch', 'deep', 'supports', 0.7],
  ['meetings', 'deep', 'caused_by', 0.5],
  ['multitask', 'deep', 'contradicts', 0.8],
  ['plans2', 'plans1', 'evolved_from', 0.7],
  ['plans3', 'plans2', 'evolved_from', 0.7],
  ['review', 'plans3', 'supports', 0.6],
  ['journal', 'review', 'related_to', 0.4],
  ['plans3', 'deep', 'supports', 0.5],
  ['env', 'deep', 'elaborates', 0.4],
];

/** Seeds the sample brain into the key's default brain through the API; returns handle -> id. */
export async function seedSampleBrain(
  post: (url: string, body: unknown) => Promise<{ data: { id: string } }>,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const snap of SAMPLE_SNAPSHOTS) {
    const body = {
      name: snap.name,
      core: snap.core,
      type: snap.type,
      tags: snap.tags,
      significance_score: snap.significance,
    };
    ids[snap.handle] = (await post('/v1/snapshots', body)).data.id;
  }
  for (const [source, target, edge_type, strength] of SAMPLE_EDGES) {
    await post('/v1/edges', { source_id: ids[source], target_id: ids[target], edge_type, strength });
  }
  return ids;
}
