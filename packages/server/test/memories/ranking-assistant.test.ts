// Memory ranking (domain/memories/ranking.ts, length-norm.ts; docs/ranking.md) pinned on a small
// fixed history of the second kind the ranking is measured on: a user's chats with an assistant,
// short statements of the user's own facts beside answers many times as long that name the same
// words in passing. The user's statement of the fact ranks above the long answers; the long
// answer beside it is not lifted above the user's other statement of the thing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeConversation } from '../helpers/conversation.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/** A long answer: the advice of an assistant, naming the topic's words now and then. */
const answer = (topic: string, words: string[]) =>
  [
    `Great question about ${topic}! Here are some ideas you might find useful.`,
    ...words.map(
      (w, i) =>
        `${i + 1}. Think about ${w} early: many people find that planning for it ahead of time makes the ` +
        'whole experience calmer, and a short checklist helps you keep track of what matters most to you.',
    ),
    'Remember to pace yourself, stay hydrated and enjoy the process. Let me know if you want more detail on any point!',
  ].join(' ');

/** Sessions of a user's chats with an assistant, oldest first: [speaker, content]. */
const SESSIONS: [string, string][][] = [
  [
    ['user', 'I ran a 5K charity race last Sunday and finished in 28 minutes.'],
    [
      'assistant',
      answer('running', [
        'the charity race season',
        'your next 5K race',
        'how to finish a race strong',
        'a 5K charity race',
      ]),
    ],
    ['user', 'Thanks. Any stretches for tight calves?'],
    ['assistant', answer('stretching', ['calf stretches', 'foam rolling', 'warm-ups', 'rest days'])],
  ],
  [
    ['user', 'Can you suggest a training plan for a half marathon race?'],
    [
      'assistant',
      answer('race training', ['a 5K time trial', 'race pace runs', 'charity race fundraising', 'long runs']),
    ],
    ['user', 'My sister Mia is visiting in June, what should we cook together?'],
    ['assistant', answer('cooking', ['fresh pasta', 'a summer salad', 'grilled fish', 'dessert'])],
  ],
  [
    ['user', 'I adopted a cat named Miso from the shelter on Friday.'],
    ['assistant', answer('a new cat', ['litter training', 'a scratching post', 'vet visits', 'toys'])],
    ['user', 'I signed up for the charity race again next spring, same 5K course.'],
    ['assistant', answer('your plans', ['the training schedule', 'race fundraising', 'team shirts', 'the start line'])],
  ],
];

describe('memory ranking on a user’s history with an assistant', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
    await writeConversation(api, key, SESSIONS, {
      prefix: 'chat',
      at: (s, t) => new Date(Date.UTC(2024, 2, 1 + 7 * s, 18, t)),
    });
  });
  after(() => api.close());

  const contents = async (query: string) => {
    const res = await api.request('POST', '/v1/memories/search', { key, body: { query, limit: 10 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body as { data: { content: string; speaker: string }[] }).data;
  };

  it('the user’s short statement of a fact ranks above long answers that name its words', async () => {
    const found = await contents('How fast did I finish the 5K charity race?');
    assert.equal(found[0]?.content, SESSIONS[0]![0]![1], JSON.stringify(found.map((m) => m.content.slice(0, 40))));
  });

  it('both of the user’s statements of a thing come before the assistant’s answers', async () => {
    const found = await contents('Which charity race did I sign up for, and the 5K course?');
    const place = (content: string) => found.findIndex((m) => m.content === content);
    const firstAnswer = found.findIndex((m) => m.speaker === 'assistant');
    assert.ok(place(SESSIONS[2]![2]![1]) >= 0 && place(SESSIONS[0]![0]![1]) >= 0, JSON.stringify(found));
    assert.ok(place(SESSIONS[2]![2]![1]) < firstAnswer, JSON.stringify(found.map((m) => m.content.slice(0, 40))));
    assert.ok(place(SESSIONS[0]![0]![1]) < firstAnswer, JSON.stringify(found.map((m) => m.content.slice(0, 40))));
  });
});
