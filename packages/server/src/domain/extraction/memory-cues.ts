/**
 * The cue table of memory types (published in docs/extraction.md), read in this order; the
 * first type with a matching cue wins. A list of two or more items is a framework before any of
 * these; narrative sentences (units.ts: a story opener, or a person and a past-tense verb) with
 * none of these cues are a story; anything else is a fact.
 */
import type { MemoryType } from './types.js';

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const DAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';

export const MEMORY_CUES: readonly [MemoryType, RegExp[]][] = [
  [
    'decision',
    [
      /\b(?:we|i|the team|they|the board|management) (?:have |had |finally |eventually )?(?:decided|agreed|chose|opted|resolved|committed|settled on)\b/,
      /\bdecision (?:is|was|:)|\bwe(?:'re| are| will|'ll) go(?:ing)? with\b|\blet's go with\b|\bwe(?:'ll| will) use\b/,
    ],
  ],
  [
    'preference',
    [
      /\b(?:i|we) (?:really |much |strongly |generally )?(?:prefer|like|love|enjoy|hate|dislike|can't stand|cannot stand)\b/,
      /\b(?:i|we)(?:'d| would) rather\b|\bmy (?:favou?rite|preference)\b|\b(?:i|we) (?:don't|do not) (?:like|enjoy|want)\b/,
      // Someone else's ("Tom prefers …", "she can't stand …", "Ana doesn't like …").
      /^(?:[a-z][a-z'-]*(?: [a-z][a-z'-]*)?) (?:really |much |strongly |generally |still |always )?(?:prefers|likes|loves|enjoys|hates|dislikes|can't stand|cannot stand|would rather|'d rather|doesn't like|does not like|doesn't want|does not want)\b|\b(?:his|her|their) (?:favou?rite|preference)\b/,
    ],
  ],
  [
    'insight',
    [
      /\b(?:i|we) (?:finally |suddenly )?(?:realized|realised|learned|learnt|discovered|noticed|figured out|understood)\b/,
      /\bit turns out\b|\bthe (?:(?:main|big|biggest|real|most important|one) )?(?:lesson|insight|takeaway|key|trick) (?:is|was)\b|\bin hindsight\b/,
    ],
  ],
  ['framework', [/\bframework\b|\bmental model\b|\bthe (?:steps|stages|phases) (?:are|were)\b/]],
  [
    'event',
    [
      new RegExp(String.raw`\b(?:${MONTHS}) \d{1,2}\b|\b\d{1,2} (?:${MONTHS})\b|\b(?:on|last|this past) (?:${DAYS})\b`),
      new RegExp(String.raw`\b(?:in|on|since|during|by) (?:(?:early|mid|late) )?(?:(?:${MONTHS}) )?(?:19|20)\d\d\b`),
      /\b(?:yesterday|last (?:week|month|year|quarter|night)|(?:a|two|three|\d+) (?:days|weeks|months|years) ago)\b/,
      /\b(?:we|i|they|the team|the company) (?:launched|shipped|released|hired|signed|moved|joined|left|founded|started|opened|closed|raised|acquired|met|visited|attended)\b/,
    ],
  ],
];
