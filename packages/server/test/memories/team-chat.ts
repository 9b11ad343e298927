// A made-up three-day team chat about a product launch (design §6.1): five facts change on the
// way — the launch date twice, the premium tier's name, its price, the standup time and the
// launch event's city — among turns that mention the same things without changing them. Each
// turn may carry `ask`: after it is loaded, that question's first result must be `expect` (the
// turn that holds the current value, by its index in TURNS).

export interface ChatTurn {
  speaker: string;
  at: string;
  content: string;
}

export const TURNS: ChatTurn[] = [
  // Day 1
  { speaker: 'Maya', at: '2025-04-01T09:02:00Z', content: 'Morning all! Kicking off launch planning today.' },
  { speaker: 'Maya', at: '2025-04-01T09:03:00Z', content: 'I propose we launch on Monday April 14.' },
  { speaker: 'Leo', at: '2025-04-01T09:05:00Z', content: 'Works for engineering if the payments work lands.' },
  { speaker: 'Sam', at: '2025-04-01T09:07:00Z', content: 'The premium tier will be called Gold.' },
  { speaker: 'Priya', at: '2025-04-01T09:08:00Z', content: 'Nice, I will draft the pricing page.' },
  { speaker: 'Sam', at: '2025-04-01T09:10:00Z', content: 'The premium tier costs $12 a month.' },
  { speaker: 'Leo', at: '2025-04-01T09:12:00Z', content: 'Do we offer a yearly plan too?' },
  { speaker: 'Sam', at: '2025-04-01T09:13:00Z', content: 'Not at launch, maybe later in the year.' },
  { speaker: 'Maya', at: '2025-04-01T09:15:00Z', content: 'Daily standup is at 9:30 in the small room.' },
  { speaker: 'Priya', at: '2025-04-01T09:20:00Z', content: 'The launch event will be in Berlin.' },
  { speaker: 'Leo', at: '2025-04-01T09:22:00Z', content: 'Berlin is great, the office there can help.' },
  { speaker: 'Maya', at: '2025-04-01T10:00:00Z', content: 'Can everyone review the launch checklist by Friday?' },
  { speaker: 'Sam', at: '2025-04-01T10:05:00Z', content: 'Excited about this launch!' },
  { speaker: 'Priya', at: '2025-04-01T11:30:00Z', content: 'Pricing page draft is in the design folder.' },
  {
    speaker: 'Leo',
    at: '2025-04-01T14:00:00Z',
    content: 'Payments migration is running behind, I will know more tomorrow.',
  },
  { speaker: 'Maya', at: '2025-04-01T16:45:00Z', content: 'Thanks everyone, good first day.' },
  // Day 2
  { speaker: 'Leo', at: '2025-04-02T09:31:00Z', content: 'Bad news: the payments migration needs another week.' },
  {
    speaker: 'Leo',
    at: '2025-04-02T09:32:00Z',
    content: 'We need to move the launch to Monday April 21. April 14 is off because of the payments migration.',
  },
  { speaker: 'Maya', at: '2025-04-02T09:35:00Z', content: 'Understood, that is the right call.' },
  { speaker: 'Sam', at: '2025-04-02T09:40:00Z', content: 'I will tell the press contacts.' },
  {
    speaker: 'Priya',
    at: '2025-04-02T10:10:00Z',
    content: "Let's rename the premium tier to Platinum, Gold clashes with our partner's brand.",
  },
  { speaker: 'Sam', at: '2025-04-02T10:12:00Z', content: 'Agreed, Platinum sounds more premium anyway.' },
  { speaker: 'Maya', at: '2025-04-02T10:30:00Z', content: 'Standup moved to 10:00 starting tomorrow.' },
  { speaker: 'Leo', at: '2025-04-02T10:31:00Z', content: 'Thank you, mornings are busy with deploys.' },
  { speaker: 'Priya', at: '2025-04-02T13:00:00Z', content: 'Updated the screenshots for the pricing page.' },
  { speaker: 'Sam', at: '2025-04-02T15:00:00Z', content: 'Press release draft is ready for review.' },
  { speaker: 'Maya', at: '2025-04-02T17:00:00Z', content: 'See you all tomorrow.' },
  // Day 3
  { speaker: 'Maya', at: '2025-04-03T10:01:00Z', content: 'Quick standup notes: all green except payments.' },
  {
    speaker: 'Sam',
    at: '2025-04-03T10:20:00Z',
    content: 'Actually the premium tier will cost $15 a month, finance wants room for discounts.',
  },
  { speaker: 'Priya', at: '2025-04-03T10:22:00Z', content: 'I will update the pricing page again.' },
  {
    speaker: 'Priya',
    at: '2025-04-03T11:00:00Z',
    content: "The launch event is no longer in Berlin, we're doing it in Amsterdam instead.",
  },
  { speaker: 'Leo', at: '2025-04-03T11:05:00Z', content: 'Amsterdam works, shorter trip for most of us.' },
  { speaker: 'Leo', at: '2025-04-03T15:00:00Z', content: 'Payments migration finished early, tests pass.' },
  { speaker: 'Maya', at: '2025-04-03T15:10:00Z', content: 'Final call: the launch moves to Wednesday April 23.' },
  { speaker: 'Sam', at: '2025-04-03T15:12:00Z', content: 'Updating the press release with the new date.' },
  { speaker: 'Maya', at: '2025-04-03T17:30:00Z', content: 'Great work this week, everyone.' },
];

/** After loading turn `after`, question `ask` ranks turn `expect` first. */
export const CHECKS: { after: number; ask: string; expect: number }[] = [
  { after: 1, ask: 'What is the launch date?', expect: 1 },
  { after: 17, ask: 'What is the launch date?', expect: 17 },
  { after: 3, ask: 'What is the premium tier called?', expect: 3 },
  { after: 20, ask: 'What is the premium tier called?', expect: 20 },
  { after: 5, ask: 'How much does the premium tier cost?', expect: 5 },
  { after: 28, ask: 'How much does the premium tier cost?', expect: 28 },
  { after: 8, ask: 'What time is the standup?', expect: 8 },
  { after: 22, ask: 'What time is the standup?', expect: 22 },
  { after: 9, ask: 'Where is the launch event?', expect: 9 },
  { after: 30, ask: 'Where is the launch event?', expect: 30 },
  { after: 33, ask: 'What is the launch date?', expect: 33 },
];
