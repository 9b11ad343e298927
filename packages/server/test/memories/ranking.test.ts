// Memory ranking (domain/memories/ranking.ts, docs/ranking.md) pinned on a small fixed
// conversation, on the configured store: the speaker counts, words are stemmed, framing words
// of a question do not, and a turn next to a strong match comes with it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeConversation } from '../helpers/conversation.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/** Two sessions of a conversation between Ada and Ben, in order. */
const SESSIONS: [string, string][][] = [
  [
    ['Ada', 'Hi Ben! I spent the whole weekend painting.'],
    ['Ben', 'Nice! What did you paint?'],
    ['Ada', 'A sunrise over the lake, in orange and violet.'],
    ['Ben', 'I went hiking with my dog Rufus instead.'],
    ['Ada', 'Rufus must have loved the trail.'],
    ['Ben', 'He did. My sister paints too, mostly portraits of people she likes.'],
  ],
  [
    ['Ben', 'I adopted a second dog last week, a beagle named Pixel.'],
    ['Ada', 'Congratulations! I signed up for a pottery class at the library.'],
    ['Ben', 'What kind of things will you make there?'],
    ['Ada', 'Bowls first. Maybe a mug for my coffee.'],
    ['Ben', 'I would likely break anything I made.'],
  ],
];

describe('memory ranking on a fixed conversation', () => {
  let api: TestApi;
  let key: TestKey;
  let ids = new Map<string, string>();
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
    ids = await writeConversation(api, key, SESSIONS, {
      prefix: 'session',
      at: (s, t) => new Date(Date.UTC(2024, 0, s + 1, 10, t)),
    });
  });
  after(() => api.close());

  const contents = async (body: Record<string, unknown>) => {
    const res = await api.request('POST', '/v1/memories/search', { key, body: { limit: 5, ...body } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { data: { content: string; score: number }[]; count: number };
  };
  const first = (found: { data: { content: string }[] }) => found.data[0]?.content;

  it('the speaker a question names ranks that speaker’s turn first (stems: painted ~ painting)', async () => {
    assert.equal(first(await contents({ query: 'What has Ada painted?' })), SESSIONS[0]![0]![1]);
    assert.equal(first(await contents({ query: 'What does Ben say his sister paints?' })), SESSIONS[0]![5]![1]);
  });

  it('a turn next to a strong match ranks above the speaker’s other turns', async () => {
    const found = await contents({ query: 'What did Ada paint?', limit: 10 });
    const place = (content: string) => found.data.findIndex((m) => m.content === content);
    const answer = place(SESSIONS[0]![2]![1]);
    assert.ok(answer >= 0, JSON.stringify(found.data.map((m) => m.content)));
    // Without the neighbour's share the shorter turn of Ada's would be above the answer.
    assert.ok(answer < place(SESSIONS[0]![4]![1]), JSON.stringify(found.data.map((m) => m.content)));
  });

  it('the answer after a question comes with it, though it shares no word with the query', async () => {
    const found = await contents({ query: 'paint', limit: 10 });
    const answer = found.data.find((m) => m.content === SESSIONS[0]![2]![1]);
    assert.ok(answer, JSON.stringify(found.data.map((m) => m.content)));
    // Three turns say the word; those brought in by a neighbour add to count.
    assert.equal(found.count, found.data.length);
    assert.ok(found.count > 3);
  });

  it('framing words of a question do not decide the ranking', async () => {
    // "kind", "would", "likely" match two turns of Ben's that say nothing about a class.
    const found = await contents({ query: 'What kind of class would she likely take?' });
    assert.equal(first(found), SESSIONS[1]![1]![1]);
  });

  it('neighbours brought in obey the search’s filters', async () => {
    const found = await contents({ query: 'What did Ada paint?', speaker: 'Ben' });
    for (const m of found.data)
      assert.ok(!m.content.startsWith('A sunrise'), 'Ada’s turn with a speaker filter on Ben');
    const inSession = await contents({ query: 'dog', session_id: 'session-2' });
    assert.deepEqual(
      inSession.data.map((m) => ids.get(m.content)).filter((id) => id === undefined),
      [],
    );
    for (const m of inSession.data)
      assert.ok(
        SESSIONS[1]!.some(([, c]) => c === m.content),
        m.content,
      );
  });

  it('phrases and prefixes still rank by the index alone', async () => {
    assert.equal(first(await contents({ query: '"pottery class"' })), SESSIONS[1]![1]![1]);
    assert.equal(first(await contents({ query: 'beag*' })), SESSIONS[1]![0]![1]);
  });
});

describe('memory ranking of a conversation written without sessions', () => {
  let api: TestApi;
  let key: TestKey;
  /** Minutes after the start at which each turn happened: the last comes after a long pause. */
  const TURNS: [string, string, number][] = [
    ['Cleo', 'My brother finally finished his violin.', 0],
    ['Dan', 'What wood did he use for it?', 1],
    ['Cleo', 'Maple for the back and spruce for the top.', 2],
    ['Dan', 'Sounds lovely. I am off to the harbour now.', 3],
    ['Cleo', 'Spruce trees grow all over the hills here.', 3 * 60],
  ];
  const remember = (content: string, speaker: string, minutes: number) =>
    api.request('POST', '/v1/memories', {
      key,
      body: { content, speaker, occurred_at: new Date(Date.UTC(2024, 2, 1, 9, minutes)).toISOString() },
    });
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
    for (const [speaker, content, minutes] of TURNS) {
      const res = await remember(content, speaker, minutes);
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
  });
  after(() => api.close());

  const search = async (query: string) => {
    const res = await api.request('POST', '/v1/memories/search', { key, body: { query, limit: 10, context: 2 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { data: { content: string; context: unknown[] }[]; count: number };
  };

  it('the answer after the question comes with it: neighbours are the turns nearest in time', async () => {
    const found = await search('violin wood');
    const contents = found.data.map((m) => m.content);
    assert.ok(contents.includes(TURNS[2]![1]), JSON.stringify(contents));
    // `context` stays the session's: none around a memory without one (design §12.3).
    for (const m of found.data) assert.deepEqual(m.context, []);
  });

  it('a turn after a pause longer than the conversation gap is not lifted by it', async () => {
    // "harbour" matches only the fourth turn; the fifth, three hours later, is another conversation.
    const found = await search('harbour');
    const contents = found.data.map((m) => m.content);
    assert.ok(contents.includes(TURNS[2]![1]), JSON.stringify(contents));
    assert.ok(!contents.includes(TURNS[4]![1]), JSON.stringify(contents));
  });

  it('a memory of another session is not a turn of the conversation', async () => {
    const res = await api.request('POST', '/v1/memories', {
      key,
      body: {
        content: 'Harbour cranes are loud.',
        session_id: 'elsewhere',
        occurred_at: new Date(Date.UTC(2024, 2, 1, 8, 59)).toISOString(),
      },
    });
    assert.equal(res.status, 201);
    const found = await search('brother finished');
    const contents = found.data.map((m) => m.content);
    assert.ok(contents.includes(TURNS[1]![1]), JSON.stringify(contents));
    assert.ok(!contents.includes('Harbour cranes are loud.'), JSON.stringify(contents));
  });
});

describe('memory ranking: notes without a speaker are nobody’s conversation', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  it('a turn with a speaker lifts no note written around it', async () => {
    for (const content of ['Buy milk on Monday', 'I moved to Lisbon last year', 'The car needs new tires']) {
      const body = content.includes('Lisbon') ? { content, speaker: 'Ana' } : { content };
      assert.equal((await api.request('POST', '/v1/memories', { key, body })).status, 201);
    }
    const res = await api.request('POST', '/v1/memories/search', { key, body: { query: 'Lisbon' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.data.map((m: { content: string }) => m.content),
      ['I moved to Lisbon last year'],
    );
    assert.equal(res.body.count, 1);
  });
});

describe('memory ranking: one speaker’s notes are not a conversation', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  it('notes with the same speaker written minutes apart do not lift each other', async () => {
    const notes = ['Our database backups run every night at two.', 'The dentist moved to Tuesday.', 'Buy oat milk.'];
    for (const [i, content] of notes.entries()) {
      const occurred_at = new Date(Date.UTC(2024, 2, 1, 9, i)).toISOString();
      const res = await api.request('POST', '/v1/memories', { key, body: { content, speaker: 'me', occurred_at } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const res = await api.request('POST', '/v1/memories/search', { key, body: { query: 'database backups' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.data.map((m: { content: string }) => m.content),
      [notes[0]],
    );
    assert.equal(res.body.count, 1);

    // Once someone answers, the notes around the answer are turns of a conversation again.
    const answer = {
      content: 'Good, the nightly run is enough.',
      speaker: 'Ana',
      occurred_at: new Date(Date.UTC(2024, 2, 1, 9, 0, 30)).toISOString(),
    };
    assert.equal((await api.request('POST', '/v1/memories', { key, body: answer })).status, 201);
    const lifted = await api.request('POST', '/v1/memories/search', { key, body: { query: 'database backups' } });
    assert.equal(lifted.body.data[0].content, notes[0]);
    assert.ok(
      lifted.body.data.some((m: { content: string }) => m.content === answer.content),
      JSON.stringify(lifted.body.data),
    );
  });
});

describe('memory ranking weighs words by the brain as it is now', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
  });
  after(() => api.close());

  const remember = async (content: string) => {
    const res = await api.request('POST', '/v1/memories', { key, body: { content } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  };
  const firstFound = async (query: string) => {
    const res = await api.request('POST', '/v1/memories/search', { key, body: { query } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body as { data: { content: string }[] }).data[0]?.content;
  };

  it('a write is weighed in the next search, though the words were counted just before', async () => {
    await remember('Quartz quartz in the garden.');
    await remember('Basalt by the road.');
    // Both words in one memory each: the memory saying its word twice is first.
    assert.equal(await firstFound('quartz basalt'), 'Quartz quartz in the garden.');
    for (let i = 0; i < 6; i++) await remember(`Quartz on shelf ${i}.`);
    // Now "quartz" is in most of the brain and weighs little; the rare word decides.
    assert.equal(await firstFound('quartz basalt'), 'Basalt by the road.');
  });
});
