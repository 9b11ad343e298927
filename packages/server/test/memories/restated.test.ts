// Memory search read at query time (domain/memories/restated.ts, person.ts, frequency.ts;
// docs/ranking.md) pinned on a small fixed history of a user's chats with an assistant. A fact
// the user restates with another value inside a longer turn — a turn that also asks something,
// so the write-time rules of design §6.1 link nothing — comes first in its latest version; a
// later turn that says only one word of the question does not; a frequency is a value, and one
// that answers the question's "how often" says it; and an answer addressed to the user ranks
// below the user's own statements for a question asked in the first person.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeConversation } from '../helpers/conversation.js';
import { startTestApi, type TestApi, type TestKey } from '../helpers/harness.js';

/** Sessions a week apart, oldest first: [speaker, content]. */
const SESSIONS: [string, string][][] = [
  [
    [
      'user',
      'Can you suggest board games for a group of six? By the way, my highest score in Ticket to Ride is 124 points, and I want to beat it. Any tips?',
    ],
    [
      'assistant',
      'Great question! For six players, Codenames, Dixit and Wavelength all work well. Ticket to Ride also ' +
        'plays well with a group, and long routes are the way to a high score: claim them early, keep an ' +
        'eye on the destination tickets, and do not draw too many new ones late in the game. Have fun!',
    ],
    ['user', 'I see Dr. Lee for my back every two weeks.'],
    ['user', 'I bought 3 plants for the balcony on Saturday.'],
  ],
  [
    ['user', 'I just got my highest score in Ticket to Ride, 132 points! What snacks go well with a game night?'],
    ['assistant', 'Popcorn, a cheese board and fruit skewers are easy to share and keep the cards clean.'],
    ['user', 'My neighbour’s balcony has 5 chairs and a small table.'],
  ],
  [
    [
      'user',
      'Work has been busy and my desk chair is a disaster, so these days I see Dr. Lee for my back every week. Do you have any tips for a better desk posture at the office?',
    ],
    ['assistant', 'Keep your screen at eye level, your feet flat on the floor, and stand up every half hour.'],
  ],
  [
    ['user', 'Thanks for the posture tips last week.'],
    [
      'assistant',
      'Seeing Dr. Lee every week is a good plan for your back! Dr. Lee can check your posture, and you can ' +
        'see how your back improves from one visit to the next.',
    ],
  ],
];

const turn = (s: number, t: number) => (SESSIONS[s] as [string, string][])[t]?.[1] as string;

describe('memory search: restated facts, frequencies and the asker’s own statements', () => {
  let api: TestApi;
  let key: TestKey;
  let ids = new Map<string, string>();
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
    ids = await writeConversation(api, key, SESSIONS, {
      prefix: 'chat',
      at: (s, t) => new Date(Date.UTC(2024, 2, 1 + 7 * s, 18, t)),
    });
  });
  after(() => api.close());

  const found = async (query: string) => {
    const res = await api.request('POST', '/v1/memories/search', { key, body: { query, limit: 10 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = (res.body as { data: { content: string; speaker: string }[] }).data;
    const place = (content: string) => data.findIndex((m) => m.content === content);
    return { data, place, shown: JSON.stringify(data.map((m) => `${m.speaker}: ${m.content.slice(0, 50)}`)) };
  };

  it('a value restated inside a longer turn comes first in its latest version, above the one it replaced', async () => {
    // Both turns ask something as well: the write-time rules read them as questions and link nothing.
    for (const content of [turn(0, 0), turn(1, 0)]) {
      const res = await api.request('GET', `/v1/memories/${ids.get(content)}`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((res.body.data as { superseded_by: string | null }).superseded_by, null);
    }
    const { data, place, shown } = await found('What is my highest score in Ticket to Ride?');
    assert.equal(data[0]?.content, turn(1, 0), shown);
    assert.ok(place(turn(0, 0)) > 0, shown);
  });

  it('a frequency is a value: "every week" replaces "every two weeks"', async () => {
    const { data, place, shown } = await found('How often do I see Dr. Lee for my back?');
    assert.equal(data[0]?.content, turn(2, 0), shown);
    assert.ok(place(turn(0, 2)) > 0, shown);
  });

  it('a later turn that says one word of the question does not replace the statement that answers it', async () => {
    const { data, shown } = await found('How many plants did I buy for the balcony?');
    assert.equal(data[0]?.content, turn(0, 3), shown);
  });

  it('an answer addressed to the asker ranks below the asker’s own statements', async () => {
    const { place, shown } = await found('How often do I see Dr. Lee for my back?');
    const answer = place(turn(3, 1));
    assert.ok(place(turn(2, 0)) >= 0 && place(turn(0, 2)) >= 0, shown);
    assert.ok(answer === -1 || (answer > place(turn(2, 0)) && answer > place(turn(0, 2))), shown);
  });
});

/**
 * A fact whose two statements share less than half of the question's words: the earlier names
 * the physiotherapist, the later only the person. The value each gives ("every two weeks",
 * "every week") answers the question's "how often" and so says it (answer-kind.ts's
 * askingWords, restated.ts): together they say most of the question, and the later comes
 * first. A later frequency of another person (Dr. Lee) says as much of the question's other
 * words ("see", "Dr."), but not the name the question gives, and replaces nothing.
 */
const VISITS: [string, string][][] = [
  [
    [
      'user',
      'Do you know good stretches for a stiff knee? By the way, my physiotherapist Dr. Okafor wants to see me every two weeks, so I keep a list of questions for her.',
    ],
    ['assistant', 'Gentle stretches help most when done often: hold each one for 30 seconds and never bounce.'],
    ['user', 'I see my sister on Sundays for lunch.'],
  ],
  [
    ['user', 'What should I cook for a dinner with friends on Friday?'],
    ['assistant', 'A risotto or a big tray of roasted vegetables feeds a group without much work.'],
  ],
  [
    [
      'user',
      'Can you help me plan my week with fewer meetings? And by the way, speaking of my knee, I see Dr. Okafor every week now, and she has been helping me with the stairs.',
    ],
    ['assistant', 'Block two mornings for focused work and move short check-ins to the afternoon.'],
  ],
  [['user', 'I see Dr. Lee for my back every month.']],
];

describe('memory search: a restated fact whose value answers the question’s "how often"', () => {
  let api: TestApi;
  let key: TestKey;
  before(async () => {
    api = await startTestApi({ backgroundWork: false });
    key = await api.newKey();
    await writeConversation(api, key, VISITS, {
      prefix: 'visits',
      at: (s, t) => new Date(Date.UTC(2024, 3, 1 + 14 * s, 9, t)),
    });
  });
  after(() => api.close());

  it('the later frequency comes first though it names the person only, and another person’s does not', async () => {
    const res = await api.request('POST', '/v1/memories/search', {
      key,
      body: { query: 'How often do I see my physiotherapist, Dr. Okafor?', limit: 10 },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = (res.body as { data: { content: string; speaker: string }[] }).data;
    const shown = JSON.stringify(data.map((m) => `${m.speaker}: ${m.content.slice(0, 50)}`));
    const later = (VISITS[2] as [string, string][])[0]?.[1];
    const earlier = (VISITS[0] as [string, string][])[0]?.[1];
    // First: neither the earlier statement nor Dr. Lee's later one.
    assert.equal(data[0]?.content, later, shown);
    assert.ok(data.findIndex((m) => m.content === earlier) > 0, shown);
  });
});
