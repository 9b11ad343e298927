/**
 * The text as a sequence of units — sentences, list items and list headers — each read once:
 * its words, whether it is filler, which role it plays and which snapshot type its cue
 * phrases point to.
 */
import { eng as englishStopWords } from 'stopword';
import type { SnapshotType } from '../../model.js';
import {
  CHALLENGE_CUES,
  FILLER_WORDS,
  IRREGULAR_PAST,
  META_TALK,
  METHOD_CUES,
  SEQUENCE_CUE,
  SMALL_TALK,
  SIGN_OFF,
  MEETING_META,
  DECISION_LABEL,
  DECISION_SENTENCE,
  DECISION_HEADER,
  LEAD_LABEL,
  MEETING_MOVE,
  REPORTING_FRAME,
  STORY_CUES,
  TYPE_CUES,
} from './cues.js';
import { tagSentences, type TaggedSentence, type Token } from './nlp.js';
import { readStructure } from './structure.js';
import { capitalize, normalizeText, stripOpeners } from './text.js';

export type Role = 'core' | 'story' | 'method' | 'challenge';

export interface Unit {
  text: string;
  /** Lower case, for cue phrases. */
  lower: string;
  /** The spoken opener stripped from its start ("yes,", "and"), lower case; '' when none. */
  opener: string;
  tokens: Token[];
  /** Index of the paragraph (or speaker turn) it came from. */
  block: number;
  /** The heading above its block, on the block's first unit only. */
  heading: string | null;
  /** Who speaks it, in a transcript with speaker labels. */
  speaker: string | null;
  /** Said by another speaker against the claim, and answered (grouping.ts): the other side's voice. */
  objection: boolean;
  kind: 'sentence' | 'item' | 'header';
  /** For items and headers: which list, and whether it is numbered. */
  list: number | null;
  numbered: boolean;
  /** Lemmas of its content words (nouns, verbs, adjectives, adverbs; no stop words or filler). */
  content: string[];
  trivial: boolean;
  question: boolean;
  role: Role;
  /** Has a verb in the past tense. */
  past: boolean;
  /** Opens with first/then/next/finally. */
  sequence: boolean;
  /** A decision or an action item ("Decision: …", "We agreed that …", an item under "Action items:"). */
  decision: boolean;
  typeScores: Map<SnapshotType, number>;
}

const STOP_WORDS = new Set(englishStopWords);
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'ADV', 'NUM']);

function contentLemmas(tokens: Token[]): string[] {
  return tokens
    .filter(
      (t) =>
        CONTENT_POS.has(t.pos) &&
        /^[a-z0-9][a-z0-9'-]*$/.test(t.normal) &&
        (t.pos === 'NUM' || t.normal.length > 1) &&
        !STOP_WORDS.has(t.normal) &&
        !FILLER_WORDS.has(t.normal),
    )
    .map((t) => (t.lemma && /^[a-z0-9]/.test(t.lemma) ? t.lemma : t.normal));
}

export function typeScores(lower: string): Map<SnapshotType, number> {
  const scores = new Map<SnapshotType, number>();
  for (const cue of TYPE_CUES) {
    if (cue.pattern.test(lower)) scores.set(cue.type, (scores.get(cue.type) ?? 0) + cue.weight);
  }
  return scores;
}

export function cueWeight(scores: Map<SnapshotType, number>): number {
  let total = 0;
  for (const value of scores.values()) total += value;
  return total;
}

const PERSONS = new Set(['i', 'we', 'he', 'she', 'they', 'my', 'our', 'his', 'her', 'their']);

/** "We shipped it in a week": a person and a verb in the past tense, early in the sentence. */
function isNarrative(tokens: Token[]): boolean {
  const opening = tokens.slice(0, 4);
  if (!opening.some((t) => PERSONS.has(t.normal))) return false;
  return tokens.slice(0, 8).some((t) => (t.pos === 'VERB' || t.pos === 'AUX') && isPast(t));
}

function isPast(token: Token): boolean {
  if (IRREGULAR_PAST.has(token.normal)) return true;
  return /[a-z]ed$/.test(token.normal) && token.lemma !== token.normal;
}

function roleOf(lower: string, tokens: Token[], scores: Map<SnapshotType, number>): Role {
  if (CHALLENGE_CUES.some((cue) => cue.test(lower))) return 'challenge';
  if (METHOD_CUES.some((cue) => cue.test(lower))) return 'method';
  // A sentence with a cue of its own states the insight, even when told in the past tense.
  if (cueWeight(scores) >= 1.5) return 'core';
  if (STORY_CUES.some((cue) => cue.test(lower)) || isNarrative(tokens)) return 'story';
  return 'core';
}

function isTrivial(
  tokens: Token[],
  kind: Unit['kind'],
  lower: string,
  content: string[],
  scores: Map<SnapshotType, number>,
  question: boolean,
): boolean {
  if (MEETING_META.test(lower)) return true;
  if ((SMALL_TALK.test(lower) || SIGN_OFF.test(lower)) && content.length < 5) return true;
  if (META_TALK.test(lower) && content.length < 8) return true;
  if (MEETING_MOVE.test(lower) && content.length < 6 && cueWeight(scores) < 1.5) return true;
  // List items are short by nature ("Review weekly."): only an empty one is nothing.
  if (kind !== 'sentence') return content.length === 0;
  if (question) return content.length < 4;
  if (content.length === 0) return true;
  // A fragment without a verb ("So, the remote control design.") announces, it does not state.
  if (content.length < 4 && !tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX')) return true;
  return content.length < 3 && cueWeight(scores) < 1;
}

function makeUnit(
  written: string,
  tokens: Token[],
  place: Pick<Unit, 'block' | 'heading' | 'kind' | 'list' | 'numbered' | 'speaker'>,
  opener = '',
): Unit {
  // "Decision: we keep …": the label says what the line is; the text says the rest.
  const label = DECISION_LABEL.exec(written.toLowerCase());
  const frame = label ? null : (REPORTING_FRAME.exec(written) ?? LEAD_LABEL.exec(written.toLowerCase()));
  const cut = label?.[0].length ?? frame?.[0].length ?? 0;
  const text = cut > 0 ? capitalize(written.slice(cut)) : written;
  const lower = text.toLowerCase();
  const content = contentLemmas(tokens);
  const scores = typeScores(lower);
  const decision = label !== null || DECISION_SENTENCE.test(lower);
  if (decision) scores.set('Rule', (scores.get('Rule') ?? 0) + DECISION_WEIGHT);
  const question = /\?["”')]*$/.test(text);
  return {
    ...place,
    text,
    lower,
    opener,
    tokens,
    content,
    question,
    trivial: isTrivial(tokens, place.kind, written.toLowerCase(), content, scores, question),
    role: place.kind === 'sentence' && !decision ? roleOf(lower, tokens, scores) : 'core',
    sequence: SEQUENCE_CUE.test(lower),
    decision,
    objection: false,
    past: tokens.some((t) => (t.pos === 'VERB' || t.pos === 'AUX') && isPast(t)),
    typeScores: scores,
  };
}

/** What a decision adds to the Rule cue: enough to outweigh any other type's cues. */
const DECISION_WEIGHT = 3;

/** Tags a short text that must stay one unit (a list item, a header): its sentences' tokens together. */
function tagWhole(text: string): Token[] {
  return tagSentences(text).flatMap((s) => s.tokens);
}

export function readUnits(raw: string): Unit[] {
  const units: Unit[] = [];
  let lists = 0;
  readStructure(normalizeText(raw)).forEach((block, blockIndex) => {
    let heading = block.heading;
    const place = (kind: Unit['kind'], list: number | null, numbered: boolean) => {
      const at = { block: blockIndex, heading, kind, list, numbered, speaker: block.speaker };
      heading = null;
      return at;
    };
    for (const segment of block.segments) {
      if (segment.kind === 'prose') {
        for (const sentence of withAttributions(tagSentences(segment.text)).flatMap(splitRunOn)) {
          // The openers stripped ("So,", "Well,") are stop words or filler: the tokens can stay.
          const stripped = stripOpeners(sentence.text);
          const opener = sentence.text
            .slice(0, sentence.text.length - stripped.length)
            .trim()
            .toLowerCase();
          units.push(makeUnit(stripped, sentence.tokens, place('sentence', null, false), opener));
        }
        continue;
      }
      const list = lists++;
      const numbered = segment.items.some((item) => item.numbered);
      if (segment.header !== null) {
        units.push(makeUnit(segment.header, tagWhole(segment.header), place('header', list, numbered)));
      }
      const decisions = segment.header !== null && DECISION_HEADER.test(segment.header.toLowerCase().trim());
      for (const item of segment.items) {
        const unit = makeUnit(item.text, tagWhole(item.text), place('item', list, numbered));
        if (decisions && !unit.decision) {
          unit.decision = true;
          unit.typeScores.set('Rule', (unit.typeScores.get('Rule') ?? 0) + DECISION_WEIGHT);
        }
        units.push(unit);
      }
    }
  });
  return units;
}

/** "— Stewart Brand" after a quote is read as a sentence of its own: it belongs to the quote. */
function withAttributions(sentences: TaggedSentence[]): TaggedSentence[] {
  const out: TaggedSentence[] = [];
  for (const sentence of sentences) {
    const previous = out.at(-1);
    if (previous && /^(?:[—–]|--?)\s*\p{Lu}/u.test(sentence.text) && sentence.tokens.length <= 8) {
      out[out.length - 1] = {
        text: `${previous.text} ${sentence.text}`,
        tokens: [...previous.tokens, ...sentence.tokens],
      };
    } else out.push(sentence);
  }
  return out;
}

/** Words before which unpunctuated speech usually starts a new thought. */
const THOUGHT_OPENERS = new Set(['so', 'but', 'because', 'okay', 'now', 'also', 'anyway', 'which', 'however']);
const AFTER_AND = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'the', 'if', 'that', 'then', 'so']);
export const RUN_ON = {
  /** A sentence of more words than this, with almost no punctuation, is unpunctuated speech. */
  minWords: 40,
  /** Pieces are at least this long before a thought opener may end them … */
  minPieceWords: 8,
  /** … and at most this long. */
  maxPieceWords: 40,
} as const;

/**
 * Automatic captions and dictation often come without punctuation: one "sentence" of hundreds
 * of words. Such a run is cut before words that usually open a new thought ("so", "but",
 * "because", "and I …"), and at 40 words at the latest; each piece is a sentence of its own,
 * capitalized and closed with a full stop.
 */
function splitRunOn(sentence: TaggedSentence): TaggedSentence[] {
  const words = sentence.tokens.filter((t) => t.pos !== 'PUNCT');
  const marks = sentence.tokens.length - words.length;
  if (words.length <= RUN_ON.minWords || marks * 20 > words.length) return [sentence];
  const pieces: Token[][] = [];
  let piece: Token[] = [];
  let count = 0;
  sentence.tokens.forEach((token, i) => {
    const next = sentence.tokens[i + 1];
    const opensThought =
      THOUGHT_OPENERS.has(token.normal) || (token.normal === 'and' && next !== undefined && AFTER_AND.has(next.normal));
    if ((count >= RUN_ON.minPieceWords && opensThought) || count >= RUN_ON.maxPieceWords) {
      pieces.push(piece);
      piece = [];
      count = 0;
    }
    piece.push(token);
    if (token.pos !== 'PUNCT') count++;
  });
  if (piece.length > 0) pieces.push(piece);
  return pieces.map((tokens) => {
    const text = tokens
      .map((t, i) => (i === 0 ? t.text : t.space + t.text))
      .join('')
      .replace(/[\s,;:]+$/, '');
    return { text: `${capitalize(text)}${/[.!?]$/.test(text) ? '' : '.'}`, tokens };
  });
}
