// Memories made by POST /v1/ingest (extract_memories) take who and when from the text when it
// says them (design §13.3): the speaker of a turn or the person a sentence opens with, the date
// of the text or of the event; "Tom prefers …" is a preference.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

const SYNC = [
  'Team sync, 12 March 2026',
  '',
  'Tom: I prefer to review pull requests in the morning before standup.',
  'Ana: We decided to ship the beta on April 3.',
  'Tom: The old dashboard crashed twice last week under load.',
].join('\n');

interface MemoryBody {
  content: string;
  memory_type: string;
  speaker: string | null;
  occurred_at: string;
  created_at: string;
  tags: string[];
}

describe('memories from ingested text: who and when', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi();
    key = await api.newKey();
  });
  after(() => api.close());

  const ingest = async (content: string) => {
    const brain = await api.request('POST', '/v1/brains', { key, body: { name: 'who-when' } });
    const brainId = brain.body.data.id as string;
    const res = await api.request('POST', '/v1/ingest', {
      key,
      body: { content, brain_id: brainId, extract_memories: true },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { brainId, memories: res.body.data.memories as MemoryBody[] };
  };

  it('a speaker turn names the speaker; the text’s date is when what was said happened', async () => {
    const { brainId, memories } = await ingest(SYNC);
    const byContent = (pattern: RegExp) => memories.find((m) => pattern.test(m.content));
    const review = byContent(/review pull requests/);
    assert.equal(review?.speaker, 'Tom');
    assert.equal(review?.memory_type, 'preference');
    assert.equal(review?.occurred_at, '2026-03-12T00:00:00.000Z');
    const decision = byContent(/ship the beta/);
    assert.equal(decision?.speaker, 'Ana');
    assert.equal(decision?.memory_type, 'decision');
    assert.equal(decision?.occurred_at, '2026-03-12T00:00:00.000Z', 'decided at the meeting, not on April 3');
    for (const memory of memories) assert.notEqual(memory.occurred_at, memory.created_at);
    // Stored as answered: the list filters by the speaker read from the text.
    const listed = await api.request('GET', `/v1/memories?brain_id=${brainId}&speaker=Tom`, { key });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.body.data as MemoryBody[]).map((m) => m.content).sort(),
      memories
        .filter((m) => m.speaker === 'Tom')
        .map((m) => m.content)
        .sort(),
    );
    assert.equal(listed.body.data.length, 2);
  });

  it('"Tom prefers …" is a preference of Tom’s, and his name is no tag', async () => {
    const { memories } = await ingest('Tom prefers oat milk in his coffee and hates sweeteners.');
    assert.equal(memories.length, 1);
    assert.equal(memories[0]!.memory_type, 'preference');
    assert.equal(memories[0]!.speaker, 'Tom');
    assert.ok(!memories[0]!.tags.includes('tom'), JSON.stringify(memories[0]!.tags));
  });

  it('an event dated without a year is the latest such day not after today; undated text keeps today', async () => {
    const { memories } = await ingest('On March 12 Priya moved the database to the new cluster.');
    const memory = memories[0]!;
    assert.equal(memory.memory_type, 'event');
    assert.equal(memory.speaker, null, 'the sentence does not open with who did it');
    assert.match(memory.occurred_at, /^\d{4}-03-12T00:00:00\.000Z$/);
    assert.ok(Date.parse(memory.occurred_at) <= Date.parse(memory.created_at));
    assert.ok(Date.parse(memory.created_at) - Date.parse(memory.occurred_at) < 366 * 86_400_000);

    const undated = await ingest('The staging cluster runs on three nodes with sixteen gigabytes each.');
    assert.equal(undated.memories[0]!.occurred_at, undated.memories[0]!.created_at);
    assert.equal(undated.memories[0]!.speaker, null);
  });
});
