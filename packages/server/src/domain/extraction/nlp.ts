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

/** Sentences of one stretch of prose, each with its tokens. Whitespace inside is kept as written. */
export function tagSentences(text: string): TaggedSentence[] {
  const engine = nlp();
  const its = engine.its;
  const doc = engine.readDoc(text);
  const words = doc.tokens().out() as string[];
  const spaces = doc.tokens().out(its.precedingSpaces) as string[];
  const normals = doc.tokens().out(its.normal) as string[];
  // The published types give `its.lemma` a signature `out` does not accept; it works the same.
  const lemmas = doc.tokens().out(its.lemma as unknown as typeof its.normal) as string[];
  const tags = doc.tokens().out(its.pos) as string[];
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
  return sentences;
}
