/**
 * Names and tags from key phrases. A name is the claim itself when it is short, else its
 * first clause, else its key noun phrases; tags are the group's most frequent nouns.
 */
import { eng as englishStopWords } from 'stopword';
import type { Token } from './nlp.js';
import { FILLER_WORDS } from './cues.js';
import { capitalize, clip, wordCount } from './text.js';
import { cueWeight, type Unit } from './units.js';

export const NAMING = {
  /** A claim of at most this many words is the name as it stands. */
  maxNameWords: 12,
  /** A first clause must have at least this many words to stand as the name. */
  minClauseWords: 3,
  maxTags: 5,
  maxNameCharacters: 200,
  maxTagCharacters: 64,
} as const;

/** What a name drops from the front: the cue that said what kind of statement follows. */
const CUE_PREFIX = new RegExp(
  '^(?:' +
    [
      '(?:i|we) (?:(?:really|truly|strongly|honestly|now|still|also|do|genuinely|firmly|personally|actually) )*(?:believe|think|feel|suspect|reckon)(?: that)?',
      'in (?:my|our) (?:view|opinion|experience)',
      '(?:my|our) (?:belief|view|sense|take|hunch|bet) is(?: that)?',
      "(?:i am|i'm|we are|we're) (?:absolutely |deeply |utterly |totally |fully )?(?:convinced|certain)(?: that)?",
      // "The rule is simple: never …": the adjective only announces what follows the colon. Before
      // the plain rule cue, which would stop at "is".
      '(?:the |my |our )?(?:rule|principle|lesson|point|idea|advice|answer)(?: here)? is (?:simple|clear|easy|this)(?=\\s*:)',
      '(?:the |my |our |one )?(?:golden |first |main |guiding |core |new )?(?:rule|principle)(?: of thumb)?(?: here)?(?: (?:from now on|going forward))?(?: is)?(?: that)?',
      'fundamentally',
      'at (?:its|the|their) (?:core|heart|root)',
      'it turns out(?: that)?',
      '(?:and )?the (?:(?:first|second|third|other|last|main|big|key|one|most important) )?thing(?: (?:that )?(?:i|we) (?:learned|realized|realised|noticed|discovered))? (?:is|was)(?: that)?',
      'the (?:(?:key|main|big|biggest|real|important|most important|one) )?(?:key|lesson|point|takeaway|insight|idea)(?: here)? (?:is|was)(?: that)?',
      '(?:i|we) (?:learned|realized|realised|discovered)(?: that)?',
      '(?:so |and )?(?:we|they|the team|everyone|everybody|the group|the board|all) (?:(?:also|all|finally|then|jointly|unanimously) )*(?:agreed|decided|resolved|committed)(?: that| to| on)?',
      'as a rule',
      'in general',
      'remember(?: that)?',
      '(?:note|tip|lesson|takeaway|insight|belief|conviction|model|summary|important)',
      "(?:to (?:apply|use|practi[cs]e|implement|run|do)|how to|here'?s how(?: to)?)",
      'for (?:example|instance)',
      'consider(?: the case of)?',
      '(?:in|by|during) (?:19|20)\\d\\d',
    ].join('|') +
    ')\\s*[:,]?\\s+',
  'i',
);

/** What a list's header says only to introduce the list ("…, follow these steps"). */
const LIST_INTRODUCTION =
  /,?\s*(?:(?:follow|use|take|do|try) (?:these|the following|this)(?: \w+)? (?:steps|rules|points)|as follows|(?:in|with) (?:these|the following|\w+) (?:simple )?steps)[\s:.]*$/i;

const CLAUSE_BREAK = /[,;:]\s|\s[–—-]\s|\s(?:because|which|so that|but|unless|while|whereas|although|since|when)\s/i;
const SMALL_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'with', 'at', 'by', 'vs']);
const STOP_WORDS = new Set(englishStopWords);
/** Nouns too general to name or tag anything. */
const GENERIC = new Set(
  (
    'thing things way ways lot lots people person time times something anything everything nothing kind sort bit ' +
    'stuff one ones part fact point case end example question answer yes no today day year years week month'
  ).split(' '),
);

/**
 * When, not what: months, weekdays and units of time are never a subject ("minute", "march").
 * "may" and "second" are left out of the list only where they are another word too: the model
 * tags them as nouns only as a month or a unit, so they are listed.
 */
const TIME_WORDS = new Set(
  (
    'january february march april may june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday ' +
    'weekend morning afternoon evening night tonight tomorrow yesterday second minute hour days weeks months ' +
    'minutes hours seconds quarter summary'
  ).split(' '),
);

/** Words that say what kind of statement a snapshot is (its type says that already), not what it is about. */
const NOT_TAGS = new Set([
  ...['rule', 'principle', 'step', 'work', 'belief', 'model', 'conviction', 'lesson', 'idea'],
  // … nor what kind of line of a meeting's record it came from.
  ...['decision', 'action', 'item', 'todo', 'agenda', 'attendee', 'attendees', 'note', 'notes'],
]);

function withoutCue(sentence: string): string {
  let text = sentence.trim();
  for (let i = 0; i < 2; i++) {
    const next = text.replace(CUE_PREFIX, '');
    if (next === text || wordCount(next) < 2) break;
    text = next;
  }
  return balanced(text.replace(LIST_INTRODUCTION, '').replace(/[\s.!?;:,…]+(["”')]*)$/, '$1'));
}

/** Drops a closing quote or bracket left without its opening one, and quotes around the whole. */
function balanced(text: string): string {
  let out = text;
  if (/^["“].*["”]$/.test(out)) out = out.slice(1, -1);
  const opened = (out.match(/\(/g) ?? []).length;
  const closed = (out.match(/\)/g) ?? []).length;
  if (closed > opened) out = out.replace(/\)+$/, '');
  else if (opened > closed) out = out.replace(/\s*\([^)]*$/, '');
  return out.replace(/[\s.!?;:,…]+$/, '');
}

const PREPOSITION =
  /^(?:over|in|on|at|for|with|from|by|to|through|during|after|before|across|into|within|without|under|via|per)$/i;

/**
 * A long clause loses its trailing phrases, last first, while it is longer than a name may be:
 * "Teams that write things down make fewer mistakes over the long run" → "… fewer mistakes".
 */
function withoutTrailingPhrases(clause: string): string {
  const words = clause.split(/\s+/);
  while (words.length > NAMING.maxNameWords) {
    let cut = -1;
    for (let i = words.length - 1; i >= NAMING.minClauseWords; i--) {
      if (PREPOSITION.test(words[i] ?? '')) {
        cut = i;
        break;
      }
    }
    if (cut < 0) break;
    words.length = cut;
  }
  return words.join(' ').replace(/[,;:]+$/, '');
}

function titleCase(words: string[]): string {
  return words
    .map((word, i) => {
      if (/[A-Z]/.test(word.slice(1))) return word;
      const lower = word.toLowerCase();
      return i > 0 && SMALL_WORDS.has(lower) ? lower : capitalize(lower);
    })
    .join(' ');
}

interface Chunk {
  words: Token[];
  position: number;
}

const NOUN = new Set(['NOUN', 'PROPN']);

function isChunkWord(token: Token): boolean {
  return (
    (NOUN.has(token.pos) || token.pos === 'ADJ') &&
    /^[\p{L}\p{N}][\p{L}\p{N}'-]*$/u.test(token.text) &&
    !STOP_WORDS.has(token.normal) &&
    !FILLER_WORDS.has(token.normal) &&
    !GENERIC.has(token.normal)
  );
}

/** Runs of adjectives and nouns that end in a noun: "small teams", "feedback loop". */
export function nounChunks(tokens: Token[]): Chunk[] {
  const chunks: Chunk[] = [];
  let run: Token[] = [];
  const close = () => {
    while (run.length > 0 && !NOUN.has(run[run.length - 1]?.pos ?? '')) run.pop();
    if (run.length > 0) chunks.push({ words: run.slice(-5), position: chunks.length });
    run = [];
  };
  for (const token of tokens) {
    if (isChunkWord(token)) run.push(token);
    else close();
  }
  close();
  return chunks;
}

function frequencies(units: Unit[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const unit of units) for (const word of unit.content) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

function chunkScore(chunk: Chunk, counts: Map<string, number>): number {
  const nouns = chunk.words.filter((t) => NOUN.has(t.pos));
  const weight = nouns.reduce((sum, t) => sum + (counts.get(t.lemma) ?? counts.get(t.normal) ?? 1), 0);
  return weight + 0.5 * (chunk.words.length - 1) - 0.01 * chunk.position;
}

function keyPhraseName(lead: Unit, units: Unit[]): string | null {
  const counts = frequencies(units);
  const ranked = nounChunks(lead.tokens)
    .map((chunk) => ({ chunk, score: chunkScore(chunk, counts) }))
    .sort((a, b) => b.score - a.score || a.chunk.position - b.chunk.position);
  const best = ranked[0]?.chunk;
  if (!best) return null;
  const words = best.words.map((t) => t.text);
  const second = ranked.find(
    ({ chunk }) => chunk.words.map((t) => t.normal).join(' ') !== words.join(' ').toLowerCase(),
  )?.chunk;
  if (words.length === 1 && second) {
    // One word is a weak name; two key phrases in the order the sentence gives them read better.
    const pair = [best, second].sort((a, b) => a.position - b.position);
    return titleCase([...pair[0]!.words.map((t) => t.text), 'and', ...pair[1]!.words.map((t) => t.text)]);
  }
  return titleCase(words);
}

/**
 * The name of a group whose lead sentence is `lead`: its heading when it has one, else the
 * claim without its cue phrase when short, else the claim's first clause, else its key noun
 * phrases, else its first words. Never empty, at most 200 characters.
 */
export function nameFor(lead: Unit, units: Unit[], heading: string | null): string {
  const fromHeading = heading
    ?.replace(/\*\*|__|`/g, '')
    .replace(/[:.]+$/, '')
    .trim();
  if (fromHeading && /\p{L}/u.test(fromHeading)) return clip(fromHeading, NAMING.maxNameCharacters);
  const claim = withoutCue(lead.text);
  const name = (() => {
    if (wordCount(claim) <= NAMING.maxNameWords) return claim;
    const clause = withoutTrailingPhrases(claim.split(CLAUSE_BREAK)[0]?.trim() ?? '');
    const clauseWords = wordCount(clause);
    if (clauseWords >= NAMING.minClauseWords && clauseWords <= NAMING.maxNameWords) return clause;
    return keyPhraseName(lead, units) ?? claim.split(/\s+/).slice(0, NAMING.maxNameWords).join(' ');
  })();
  // Markdown emphasis and code marks are formatting, not words of the name.
  const cleaned = capitalize(
    name
      .replace(/\*\*|__|`/g, '')
      .replace(/[\s.!?;:,…]+$/, '')
      .trim(),
  );
  return clip(cleaned || lead.text, NAMING.maxNameCharacters) || 'Untitled insight';
}

/** Up to five tags: the nouns (and two-noun compounds) the group uses most, those in its name first. */
export function tagsFor(units: Unit[], name: string, people: ReadonlySet<string> = new Set()): string[] {
  const nameWords = new Set(name.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  const scores = new Map<string, { score: number; first: number }>();
  let order = 0;
  const add = (tag: string, weight: number) => {
    const found = scores.get(tag);
    if (found) found.score += weight;
    else scores.set(tag, { score: weight, first: order++ });
  };
  for (const unit of units) {
    for (const token of unit.tokens) {
      if (!NOUN.has(token.pos) || !isChunkWord(token) || people.has(token.normal)) continue;
      // The model's lemma of "data" is "datum", which nobody tags with.
      const tag = tagText(token.pos === 'PROPN' || token.normal === 'data' ? token.normal : token.lemma);
      if (tag === null) continue;
      add(tag, nameWords.has(token.normal) || nameWords.has(token.lemma) ? 3 : 1);
    }
    for (const chunk of nounChunks(unit.tokens)) {
      const nouns = chunk.words.filter((t) => NOUN.has(t.pos));
      if (nouns.length !== 2 || chunk.words.length !== 2 || nouns.some((t) => people.has(t.normal))) continue;
      const tag = tagText(`${nouns[0]!.normal}-${nouns[1]!.lemma}`);
      if (tag !== null) add(tag, 0.5);
    }
  }
  return [...scores.entries()]
    .filter(([, s]) => s.score >= 1)
    .sort((a, b) => b[1].score - a[1].score || a[1].first - b[1].first)
    .slice(0, NAMING.maxTags)
    .map(([tag]) => tag);
}

/**
 * The subjects of a conversation: nouns (as tags are made) that come back in two turns or more
 * and that a decision or a stated view uses, small talk and greetings left out. Small talk
 * rarely returns to its nouns, and over an hour it does without ever deciding anything on them.
 */
export function subjectNouns(units: Unit[]): Set<string> {
  const turns = new Map<string, Set<number>>();
  // A line said again word for word ("can you see my screen?") does not return to its subject.
  const said = new Set<string>();
  // What the meeting decided or stated is its subject; chatter that comes back (an hour of it
  // returns to the weekend and the coffee) is not, unless a decision or a stated view uses it too.
  const stated = new Set<string>();
  for (const unit of units) {
    if (unit.trivial) continue;
    if (unit.decision || cueWeight(unit.typeScores) >= 1) {
      for (const token of unit.tokens) stated.add(tagText(token.lemma) ?? '');
    }
    if (said.has(unit.lower)) continue;
    said.add(unit.lower);
    for (const token of unit.tokens) {
      // The model tags a subject as an adjective now and then ("lose the remote"): both count.
      if (token.pos !== 'NOUN' && token.pos !== 'ADJ') continue;
      const noun = tagText(token.lemma);
      if (noun === null) continue;
      const seen = turns.get(noun);
      if (seen) seen.add(unit.block);
      else turns.set(noun, new Set([unit.block]));
    }
  }
  return new Set([...turns].filter(([noun, blocks]) => blocks.size >= 2 && stated.has(noun)).map(([noun]) => noun));
}

/** Lower case letters, digits and hyphens, 3 to 64 characters; null when nothing fit is left. */
function tagText(word: string): string | null {
  const tag = word
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9-]+/g, '')
    .replace(/^-+|-+$/g, '');
  if (tag.length < 3 || /^\d+$/.test(tag) || STOP_WORDS.has(tag) || GENERIC.has(tag) || NOT_TAGS.has(tag)) return null;
  if (TIME_WORDS.has(tag)) return null;
  return tag.slice(0, NAMING.maxTagCharacters);
}
