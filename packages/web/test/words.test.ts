import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeSize, rankColour, rankScale } from '../src/graph/style.js';
import { outcomeSentence, type CrystallizeOutcome } from '../src/ui/crystallize.js';
import { emotionInWords, isEmpty } from '../src/ui/panel-fields.js';

test('emotion reads as words, never as JSON', () => {
  assert.equal(emotionInWords({ primary: 'joy', intensity: 0.8 }), 'Joy, strong (0.8)');
  assert.equal(emotionInWords({ primary: 'fear', intensity: 0.2, valence: -0.6 }), 'Fear, mild (0.2), negative');
  assert.equal(emotionInWords({ secondary: 'relief', trigger: 'deadline' }), 'with relief, trigger deadline');
  assert.doesNotMatch(emotionInWords({ nested: { a: 1 } }), /[{}"]/);
});

test('empty means null, blank, an empty list or an empty object', () => {
  for (const value of [null, undefined, '', '  ', [], {}]) assert.equal(isEmpty(value), true, JSON.stringify(value));
  for (const value of [0, 'x', ['a'], { a: 1 }]) assert.equal(isEmpty(value), false, JSON.stringify(value));
});

const outcome = (over: Partial<CrystallizeOutcome>): CrystallizeOutcome => ({
  count: 0,
  ids: [],
  names: [],
  edges: 0,
  runId: 'cry_1',
  model: 'builtin',
  insights: 0,
  known: 0,
  ...over,
});

test('crystallize says what happened and what to do', () => {
  assert.equal(
    outcomeSentence(outcome({ insights: 3, known: 3 })),
    'Nothing new: all 3 insights were already in this brain. Paste text with ideas the brain does not hold yet.',
  );
  assert.match(outcomeSentence(outcome({ insights: 1, known: 1 })), /^Nothing new: the 1 insight was already/);
  assert.match(outcomeSentence(outcome({})), /^No insights found in this text/);
  assert.equal(
    outcomeSentence(outcome({ count: 2, edges: 1, insights: 3, known: 1 })),
    'Added 2 new snapshots and 1 automatic edge from 3 insights; 1 already in this brain were skipped. They are highlighted in the graph.',
  );
});

test('size grows with significance as well as degree; hits step down by rank', () => {
  assert.ok(nodeSize(0, 1) > nodeSize(0, 0));
  assert.ok(nodeSize(4, 0.5) > nodeSize(1, 0.5));
  assert.ok(rankScale(0) > rankScale(5));
  assert.notEqual(rankColour(0), rankColour(6), 'not one colour for every hit');
});

test('errors read as what to do: no answer means the server is not running', async () => {
  const { describeError } = await import('../src/api.js');
  const { SnapgraphError } = await import('@snapgraph/client');
  const unreachable = new SnapgraphError({ status: 0, code: 'NETWORK_ERROR', message: 'could not be reached' });
  assert.equal(describeError(unreachable), 'The server is not answering. Is it running? Start it with: npm start');
  const cut = new SnapgraphError({ status: 200, code: 'NETWORK_ERROR', message: 'cut off' });
  assert.match(describeError(cut), /not answering/);
  assert.match(
    describeError(new SnapgraphError({ status: 404, code: 'NOT_FOUND', message: 'snapshot not found' })),
    /^Not found \(404\)/,
  );
});
