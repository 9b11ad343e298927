// Texts the extraction tests read, and a seeded generator of varied English for property checks.

import { prng } from '../helpers/prng.js';

/** One short paragraph per snapshot type, each stating its type only through cue phrases. */
export const TYPE_FIXTURES = {
  Rule: [
    'Rule: never deploy to production on a Friday afternoon.',
    'You should always write the failing test before you fix the bug.',
    'As a rule, every meeting must end with a written decision and an owner.',
  ],
  Belief: [
    'I believe that small teams ship better software than large committees.',
    'In my view, remote work rewards people who write clearly.',
    'I think most productivity advice ignores how tired people actually are.',
  ],
  Model: [
    'A flywheel works by turning each customer into the reason for the next customer.',
    'If the feedback loop is short, then the team learns faster than its competitors.',
    'Technical debt leads to slower releases, and slower releases lead to bigger batches of change.',
  ],
  Conviction: [
    'I am convinced that honesty with customers is the only durable strategy.',
    'I will never ship a feature that tricks users into paying for it.',
    'Paying every contractor on time is non-negotiable for our company.',
  ],
  Principle: [
    'The guiding principle is that data belongs to the person it describes.',
    'Fundamentally, trust between colleagues is built in small and repeated moments.',
    'At its core, good design removes every step the user does not need.',
  ],
} as const;

export const STEPS_LIST = `The weekly review keeps a busy person in control of their commitments.

To apply it, follow these steps:
1. Collect every open loop from your inbox, notes and desk.
2. Review the calendar for the past week and the next two weeks.
3. Choose three priorities for the coming week.
4. Write down the first action for each priority.`;

export const SEQUENCE_PROSE =
  'Onboarding a new engineer well pays for itself within a month. First, pair them with a buddy for the first week. ' +
  'Then give them a small bug to fix on their first day. Finally, ask them to write down everything that confused them.';

export const CHALLENGE_TEXT =
  'I believe that code review catches design problems early, before they become expensive. ' +
  'However, critics point out that reviews slow teams down and mostly catch style issues.';

export const STORY_TEXT =
  'I believe that postmortems must never blame a person. When I ran the operations team in 2019, ' +
  'we blamed an engineer for an outage and he quit a month later. The same outage happened again the next year.';

export const METHOD_TEXT =
  'Spaced repetition beats rereading for anything you need to remember for years. ' +
  'To apply it, review each card just before you would forget it, and push the next review further out each time.';

/** A meeting transcript: greetings, hesitations, short acknowledgements and two real insights. */
export const TRANSCRIPT = `[00:00:01] Host: Hi everyone, um, thanks for joining.
[00:00:04] Guest: Thanks for having me!
[00:00:06] Host: Okay. So. Um, let's get started.
[00:00:09] Guest: Yeah, sure.
[00:00:12] Host: Can you hear me?
[00:00:15] Guest: Um, so, I think that, you know, the best hiring signal is how a candidate explains a past mistake.
[00:00:27] Host: Right. Uh-huh.
[00:00:30] Guest: Yeah, totally, totally.
[00:00:33] Guest: And we learned that paying interns fairly doubles the number of strong applicants we get every year.
[00:00:41] Host: Wow. Okay.
[00:00:44] Host: Hmm, what else?
[00:00:46] Guest: Um, uh, well, like, yeah.
[00:00:50] Host: Great, thanks so much, bye everyone!`;

/** Words a transcript's filler is made of: no snapshot may consist of them. */
export const FILLER_PATTERN =
  /^(?:\W|um|uh|uh-huh|hmm|okay|ok|so|yeah|right|sure|wow|great|thanks|thank|you|for|joining|having|me|hi|everyone|bye|much|totally|well|like|let's|get|started|can|hear|what|else)*$/i;

export const KNOWLEDGE_DOCUMENT = `# Opportunity cost

Opportunity cost is defined as the value of the best alternative you give up when you choose.

Compounding means that growth in one period builds on the growth of every period before it.

As Peter Drucker put it, "What gets measured gets managed."

"Culture eats strategy for breakfast," said Peter Drucker.

The GTD protocol:
1. Capture everything that has your attention.
2. Clarify what each item means and whether it is actionable.
3. Organize the actions by context.
4. Review the whole system weekly.

The Eisenhower framework:
- Urgent and important tasks are done now.
- Important but not urgent tasks are scheduled.
- Urgent but unimportant tasks are delegated.
- Tasks that are neither are dropped.

The Pomodoro technique:
1. Work on one task for twenty-five minutes.
2. Take a five-minute break.
3. After four rounds, take a longer break.

For example, in 2019 Acme Corp cut its release cycle from three months to two days by moving to trunk-based development. The company shipped more features and had fewer incidents that year.

The principle is that every user should own their data and be able to take it with them.

Teams that write their decisions down repeat fewer mistakes over the years.`;

export const MEMORY_TEXT = `Ana: In March 2023 we launched the new billing system for all customers.
Ana: We decided to move every service to PostgreSQL after the outage.
Ana: I prefer small pull requests over big ones because they are easier to review.
Ana: I realized that most of our bugs come from unclear requirements.
Ana: When I was a junior developer, I broke production twice. My lead stayed calm both times and showed me how to fix it.
Ana: The main database holds about two million customer records.
Ana: Yeah. Um. Right.`;

/** A small seeded generator: the same seed gives the same text on every run. */
export const seededRandom = prng;

const SUBJECTS = [
  'small teams',
  'the market',
  'our customers',
  'a good manager',
  'the database',
  'this habit',
  'Acme Corp',
  'écoles',
  'the API',
];
const VERBS = ['ship', 'learn', 'grow', 'fail', 'change', 'decide', 'improve', 'slow down', 'break'];
const OBJECTS = [
  'faster than expected',
  'every quarter',
  'when nobody is watching',
  'under pressure',
  'with clear goals',
  'in 2019',
  '🎉 quickly',
];
const OPENERS = [
  'I believe that',
  'Rule:',
  'I am convinced that',
  'Fundamentally,',
  'However,',
  'When I was young,',
  'Um, so,',
  'For example,',
  'First,',
  'Then',
  'Finally,',
  'I prefer',
  'We decided that',
  '',
  '',
  '',
];
const ODDITIES = [
  () => 'x'.repeat(450),
  () => 'word '.repeat(2600).trim(),
  () => '"Quoted words that run on for a while," said Jane Doe.',
  () => 'Yeah. Okay. Um.',
  () => 'What?',
  () => '1. Do one thing.\n2. Do another thing.\n- a bullet\n* another bullet',
  () => '## A Heading Here',
  () => 'Hi everyone!',
  () => 'Term: a definition that follows a colon.',
  () => '   \n\n\t  ',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** Varied English with cue phrases, lists, filler, very long sentences and words, and odd characters. */
export function generatedText(seed: number, paragraphs = 12): string {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    if (random() < 0.15) {
      out.push(pick(random, ODDITIES)());
      continue;
    }
    const sentences: string[] = [];
    const count = 1 + Math.floor(random() * 6);
    for (let s = 0; s < count; s++) {
      const sentence = [pick(random, OPENERS), pick(random, SUBJECTS), pick(random, VERBS), pick(random, OBJECTS)]
        .filter(Boolean)
        .join(' ');
      sentences.push(`${sentence}${random() < 0.1 ? '?' : '.'}`);
    }
    out.push(sentences.join(random() < 0.2 ? '\n' : ' '));
  }
  return out.join('\n\n');
}

/** A podcast: an introduction, a question and answer, a sequence, a counterpoint and a conviction. */
export const PODCAST = `Lex: Welcome back to the show. Today my guest is Maria, who has run three startups.
Maria: Thanks, Lex, great to be here.
Lex: So what's the biggest lesson from your first company?
Maria: Honestly, the biggest lesson is that you should hire slowly and fire quickly. In my first company we hired twelve people in a month because we had just raised money. Half of them left within a year.
Lex: That sounds painful.
Maria: Now we write a one-page culture memo before the first hire. First, we list the three behaviours we reward. Then we list the behaviours we will not tolerate. Finally, every candidate reads it before the interview.
Lex: Last question. What would you never compromise on?
Maria: I will never again raise money from investors who want control of the board. That is non-negotiable for me.
Lex: Thank you, Maria.
Maria: Thank you!`;
