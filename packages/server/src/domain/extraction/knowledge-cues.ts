/**
 * The cue table of knowledge entries (published in docs/extraction.md). Definitions and
 * quotes are matched on a sentence as written (case matters for names); the rest on lower case.
 */
import type { EntryType } from './types.js';

const TERM = String.raw`(?:(?:a|an|the)\s+)?(?:(?:term|word|phrase|concept)\s+)?["“']?(?<term>[^,.;:!?"“”]{2,80}?)["”']?`;

export const DEFINITION_PATTERNS: readonly RegExp[] = [
  new RegExp(String.raw`^${TERM},?\s+(?:is|are|can be)\s+defined\s+as\s+\S`, 'i'),
  new RegExp(
    String.raw`^${TERM},?\s+(?:means|refers to|denotes|stands for|is short for|is the (?:name|term|word) for|describes)\s+\S`,
    'i',
  ),
  new RegExp(String.raw`^by\s+${TERM},?\s+(?:i|we|they|people|economists|engineers|\w+)\s+mean\s+\S`, 'i'),
  new RegExp(String.raw`^${TERM}\s+is\s+(?:a|an|the)\s+\S.*\b(?:that|which|who|whose|where|used to|in which)\b`, 'i'),
  // A glossary line: "Opportunity cost: the value of the next best choice."
  /^["“]?(?<term>[A-Z][\w'’ -]{1,50}?)["”]?\s*[:–—]\s+(?:an?|the)\s+\S/,
];

const AUTHOR = String.raw`(?<author>[A-Z][\w.'’-]*(?:\s+(?:[A-Z][\w.'’-]*|de|van|von|da|del|la|le)){0,4})`;
const QUOTED = String.raw`["“](?<quote>[^"“”]{12,2000}?)[,.!?]?["”]`;
const SAID = String.raw`(?:said|says|wrote|writes|noted|notes|observed|argued|explained|remarked|put it|once said|famously said|liked to say|used to say)`;

export const QUOTE_PATTERNS: readonly RegExp[] = [
  new RegExp(String.raw`\bas\s+${AUTHOR}\s+${SAID}\s*[,:]?\s*${QUOTED}`, 'g'),
  new RegExp(String.raw`${QUOTED}\s*,?\s*${SAID}\s+${AUTHOR}`, 'g'),
  new RegExp(String.raw`${QUOTED}\s*,?\s*${AUTHOR}\s+${SAID}`, 'g'),
  new RegExp(String.raw`${AUTHOR}\s+(?:once\s+|famously\s+)?${SAID}\s*[,:]?\s*${QUOTED}`, 'g'),
  new RegExp(String.raw`${QUOTED}\s*(?:[—–]|--?)\s*${AUTHOR}`, 'g'),
];

/** A named list: the first row whose pattern its name or introducing sentence matches. */
export const LIST_KIND_CUES: readonly [EntryType, RegExp][] = [
  ['protocol', /\b(?:protocols?|procedures?|checklists?|routines?|playbooks?|runbooks?|rituals?|regimens?|process)\b/],
  [
    'framework',
    /\b(?:frameworks?|models?|matrix|canvas|pyramid|pillars?|principles|components|elements|dimensions|layers|quadrants?|stages|levels|acronym)\b/,
  ],
  ['technique', /\b(?:techniques?|methods?|tricks?|tactics?|approach|exercises?|practices?|how to|steps?|ways? to)\b/],
];

/** A group opening like this tells a case: a real example, usually dated and named. */
export const CASE_STUDY_CUES: readonly RegExp[] = [
  /^(?:for (?:example|instance)|consider (?:the case of|how|what happened)|take the (?:case|example) of|case study\b|a (?:famous|classic|good|real) example)/,
  /^(?:in|by|during) (?:19|20)\d\d,? [a-z]/,
  /\b(?:in|by|during) (?:19|20)\d\d\b.*\b(?:company|startup|firm|team|organi[sz]ation|inc|corp|ltd)\b/,
];
