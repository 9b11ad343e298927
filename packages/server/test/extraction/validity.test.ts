// Every output of the built-in extractor is valid where it goes: each snapshot passes the
// server's own create validation (the same schema and validator as POST /v1/snapshots, and
// the route itself on a real database), each entry and memory keeps its limits — for the
// fixtures and for many generated texts. And the same input gives the same output, byte for byte.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ENTRY_TYPES,
  MEMORY_TYPES,
  extractKnowledgeEntries,
  extractMemories,
  extractSnapshots,
  type ExtractedSnapshot,
} from '../../src/domain/extraction/index.js';
import { SnapshotCreateBody } from '../../src/http/schemas/snapshot.js';
import { validatorCompiler } from '../../src/http/plugins/validation.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';
import {
  CHALLENGE_TEXT,
  KNOWLEDGE_DOCUMENT,
  MEMORY_TEXT,
  STEPS_LIST,
  STORY_TEXT,
  TRANSCRIPT,
  TYPE_FIXTURES,
  generatedText,
} from './fixtures.js';

type Check = ((data: unknown) => boolean) & { errors?: unknown };
const validateCreateBody = validatorCompiler({
  schema: SnapshotCreateBody,
  httpPart: 'body',
  method: 'POST',
  url: '/v1/snapshots',
}) as Check;

const characters = (text: string) => [...text].length;

const FIXTURES = [
  ...Object.values(TYPE_FIXTURES).flat(),
  STEPS_LIST,
  CHALLENGE_TEXT,
  STORY_TEXT,
  TRANSCRIPT,
  KNOWLEDGE_DOCUMENT,
  MEMORY_TEXT,
];
const GENERATED = Array.from({ length: 40 }, (_, seed) => generatedText(seed + 1));
/** One sentence far over every limit, and one word longer than a name may be. */
const OVERSIZED = [
  // Punctuated enough not to read as unpunctuated speech, so it stays one sentence.
  `I believe that ${'small teams, large gains, '.repeat(700)}and nothing else.`,
  `Rule: ${'x'.repeat(300)} must always be checked.`,
  `${'Feedback loops compound quickly. '.repeat(400)}`,
];
/** Text the rules were not written for: it must give valid output (or none), never an error. */
const ODD = [
  '...!!!???',
  '🎉🎉🎉 🎉 🎉.',
  '这是一个测试。我们相信小团队更快。',
  'مرحبا بالعالم. هذا اختبار.',
  'x'.repeat(100_000),
  '- \n- \n1.\n2.',
  '# \n## ',
  'Rule:',
  '"',
  '“unclosed quote said Bob',
  'a\u0000b\u0007c. Rule: never do \u200b this.',
  'Q: What?\nA: Yes.\nQ: Why?\nA: Because.',
  `1. ${'word '.repeat(5000)}`,
  'Ünïcödé wörds ärë hërë, and they must always be valid. Ça va.',
];

function assertValidSnapshot(snapshot: ExtractedSnapshot, source: string): void {
  const context = `${JSON.stringify(snapshot).slice(0, 300)} from ${JSON.stringify(source.slice(0, 80))}`;
  assert.ok(validateCreateBody(structuredClone(snapshot)), `${JSON.stringify(validateCreateBody.errors)} ${context}`);
  assert.ok(snapshot.name.trim().length > 0 && characters(snapshot.name.trim()) <= 200, context);
  assert.ok(snapshot.core.trim().length > 0 && characters(snapshot.core.trim()) <= 10_000, context);
  assert.ok(characters(snapshot.one_liner) <= 500, context);
  assert.equal(snapshot.name, snapshot.name.trim(), context);
  for (const field of ['story', 'method', 'steps', 'challenge'] as const) {
    const value = snapshot[field];
    if (value !== undefined) assert.ok(value.trim().length > 0 && characters(value) <= 20_000, `${field}: ${context}`);
  }
  assert.ok(snapshot.tags.length <= 50, context);
  assert.equal(new Set(snapshot.tags).size, snapshot.tags.length, context);
  for (const tag of snapshot.tags) assert.match(tag, /^[a-z0-9-]{1,64}$/, context);
  for (const score of [snapshot.confidence, snapshot.significance_score]) {
    assert.ok(Number.isFinite(score) && score >= 0 && score <= 1, context);
  }
}

describe('extraction output is always valid', () => {
  it('every snapshot passes the create-body schema with the server validator', () => {
    let count = 0;
    for (const text of [...FIXTURES, ...GENERATED, ...OVERSIZED, ...ODD]) {
      for (const snapshot of extractSnapshots(text)) {
        assertValidSnapshot(snapshot, text);
        count++;
      }
    }
    assert.ok(count > 100, `only ${count} snapshots were checked`);
  });

  it('an oversized sentence is clipped at a word boundary, never left over a limit', () => {
    const [snapshot] = extractSnapshots(OVERSIZED[0]!);
    assert.ok(snapshot);
    assert.ok(characters(snapshot.core) <= 10_000);
    assert.match(snapshot.core, /(?:small|teams|large|gains)…$/);
    assert.ok(characters(snapshot.core) > 9_900, 'clipped near the limit, not far below it');
    assert.ok(characters(snapshot.one_liner) <= 500);
  });

  it('every knowledge entry has a known type, a title of 1 to 500 characters and content', () => {
    for (const text of [...FIXTURES, ...GENERATED, ...OVERSIZED, ...ODD]) {
      for (const entry of extractKnowledgeEntries(text, { title: 'Source', domain: 'testing' })) {
        assert.ok((ENTRY_TYPES as readonly string[]).includes(entry.entry_type), JSON.stringify(entry));
        assert.ok(entry.title.trim().length > 0 && characters(entry.title) <= 500, JSON.stringify(entry));
        assert.ok(entry.content.trim().length > 0, JSON.stringify(entry));
      }
    }
  });

  it('every memory has a known type, content of 1 to 10,000 characters and valid tags', () => {
    for (const text of [...FIXTURES, ...GENERATED, ...OVERSIZED, ...ODD]) {
      for (const memory of extractMemories(text)) {
        assert.ok((MEMORY_TYPES as readonly string[]).includes(memory.memory_type), JSON.stringify(memory));
        assert.ok(memory.content.trim().length > 0 && characters(memory.content) <= 10_000, JSON.stringify(memory));
        for (const tag of memory.tags) assert.match(tag, /^[a-z0-9-]{1,64}$/);
      }
    }
  });

  it('is deterministic: the same text gives the same output, byte for byte', () => {
    for (const text of [...FIXTURES, ...GENERATED.slice(0, 10)]) {
      const first = JSON.stringify([
        extractSnapshots(text),
        extractKnowledgeEntries(text, { title: 'T' }),
        extractMemories(text),
      ]);
      const again = JSON.stringify([
        extractSnapshots(text),
        extractKnowledgeEntries(text, { title: 'T' }),
        extractMemories(text),
      ]);
      assert.equal(again, first);
    }
  });
});

describe('extracted snapshots through POST /v1/snapshots', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  it('each is created (201) and stored as extracted', async () => {
    const snapshots = [...FIXTURES, GENERATED[0]!, OVERSIZED[0]!].flatMap((text) => extractSnapshots(text));
    for (const snapshot of snapshots) {
      const res = await api.request('POST', '/v1/snapshots', { key, body: snapshot });
      assert.equal(res.status, 201, `${JSON.stringify(res.body)} for ${JSON.stringify(snapshot).slice(0, 300)}`);
      const stored = (res.body as { data: Record<string, unknown> }).data;
      for (const [field, value] of Object.entries(snapshot)) assert.deepEqual(stored[field], value, field);
    }
  });
});
