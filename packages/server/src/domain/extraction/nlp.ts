import { createRequire } from 'node:module';
import type winkNLP from 'wink-nlp';
import type { ItemSentence } from 'wink-nlp';

/** One word or mark as the model read it. `text` is the original spelling. */
export interface Token {
  text: string;
  /** Lower case, contractions expanded (`n't` → `not`). */
  normal: string;
  lemma: string;
  /** Universal part of speech: NOUN, PROPN, VERB, AUX, ADJ, ADV, PRON, DET, ADP, PUNCT, … */
  pos: string;
  /** The white space written before it. */
  space: string;
}

export interface TaggedSentence {
  text: string;
  tokens: Token[];
}

type Engine = ReturnType<typeof winkNLP>;

let engine: Engine | undefined;

/**
 * The model is about 4 MB of tables that take a few hundred milliseconds to load: loaded on
 * the first extraction, never at import, so the CLI and a server that never extracts do not
 * pay for it. Only sentence boundaries and parts of speech are asked for (named entities,
 * negation and sentiment would cost time for nothing we use).
 */
function nlp(): Engine {
  if (engine) return engine;
  const require = createRequire(import.meta.url);
  const create = require('wink-nlp') as typeof winkNLP;
  engine = create(require('wink-eng-lite-web-model'), ['sbd', 'pos']);
  return engine;
}

/**
 * A word longer than this is not language (a base64 blob, a hash, a minified line): the model
 * never sees it. Some of the model's features cost the square of a token's length (the English
 * model's abbreviation test, `/[a-z].*\.$/i`, took 2.8 s on one 40,000-character token), so
 * every such word is replaced by a short stand-in before reading and put back in the tokens'
 * text after, with the part of speech `X` (no tag, no name, no content word is made of it).
 * Every step after this is linear in the text's length (docs/extraction.md, "Cost").
 */
export const MAX_WORD_CHARACTERS = 64;
/** A stand-in the model reads as one plain word, and that ordinary text does not contain. */
const STAND_IN = 'Zqlongwordqz';
const LONG_RUN = new RegExp(`\\S{${MAX_WORD_CHARACTERS + 1},}`, 'g');
const CLOSING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '"', "'"]);

/** The text with each long word replaced by the stand-in, and the words replaced, in order. */
function withoutLongWords(text: string): { text: string; words: string[] } {
  const words: string[] = [];
  if (text.length <= MAX_WORD_CHARACTERS) return { text, words };
  const replaced = text.replace(LONG_RUN, (run) => {
    // The marks that close a sentence stay outside, for the sentence boundary (a loop, not a
    // regular expression: a run of marks would make one backtrack).
    let end = run.length;
    while (end > 0 && CLOSING.has(run[end - 1] ?? '')) end--;
    if (end <= MAX_WORD_CHARACTERS) return run;
    words.push(run.slice(0, end));
    return STAND_IN + run.slice(end);
  });
  return { text: replaced, words };
}

/** Sentences of one stretch of prose, each with its tokens. Whitespace inside is kept as written. */
export function tagSentences(raw: string): TaggedSentence[] {
  const engine = nlp();
  const its = engine.its;
  const { text, words: longWords } = withoutLongWords(raw);
  const doc = engine.readDoc(text);
  const words = doc.tokens().out() as string[];
  const spaces = doc.tokens().out(its.precedingSpaces) as string[];
  const normals = doc.tokens().out(its.normal) as string[];
  // The published types give `its.lemma` a signature `out` does not accept; it works the same.
  const lemmas = doc.tokens().out(its.lemma as unknown as typeof its.normal) as string[];
  const tags = doc.tokens().out(its.pos) as string[];
  if (longWords.length > 0) {
    let next = 0;
    words.forEach((word, i) => {
      if (word !== STAND_IN || next >= longWords.length) return;
      words[i] = longWords[next++] ?? word;
      tags[i] = 'X';
    });
  }
  const sentences: TaggedSentence[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const [first, last] = sentence.out(its.span) as unknown as [number, number];
    const tokens: Token[] = [];
    let text = '';
    for (let i = first; i <= last; i++) {
      const word = words[i] ?? '';
      if (tokens.length > 0) text += spaces[i] ?? '';
      text += word;
      tokens.push({
        text: word,
        normal: normals[i] ?? word,
        lemma: lemmas[i] ?? word,
        pos: tags[i] ?? 'X',
        space: spaces[i] ?? '',
      });
    }
    const content = tokens.filter((t) => t.pos !== 'SPACE');
    if (content.length === 0) return;
    const previous = sentences.at(-1);
    // The model sometimes ends a sentence inside a word ("openapi.json", "v1.2"): with no space
    // between them, the two halves are one sentence.
    if (previous && (spaces[first] ?? '') === '') {
      previous.text += text.trim();
      previous.tokens.push(...content);
    } else sentences.push({ text: text.trim(), tokens: content });
  });
  return sentences.flatMap(atListEnds);
}

/**
 * "… or in conversation etc. Furthermore, …": the model reads "etc." as an abbreviation inside
 * the sentence, but before a capitalized word that names nothing it ends the sentence.
 */
function atListEnds(sentence: TaggedSentence): TaggedSentence[] {
  const { tokens } = sentence;
  const at = tokens.findIndex(
    (t, i) =>
      /^etc\.$/i.test(t.text) &&
      i + 1 < tokens.length &&
      tokens[i + 1]!.space !== '' &&
      /^[A-Z]/.test(tokens[i + 1]!.text) &&
      tokens[i + 1]!.pos !== 'PROPN',
  );
  if (at < 0) return [sentence];
  const written = (part: Token[]) => part.map((t, i) => (i > 0 ? t.space : '') + t.text).join('');
  const head = tokens.slice(0, at + 1);
  const rest = tokens.slice(at + 1);
  return [{ text: written(head), tokens: head }, ...atListEnds({ text: written(rest), tokens: rest })];
}
