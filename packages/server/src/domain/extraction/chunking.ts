/**
 * Long text cut into pieces that fit an LLM's context: whole paragraphs where they fit, else
 * whole sentences, and only a sentence longer than the budget is cut, between words.
 */
import { tagSentences } from './nlp.js';
import { normalizeText } from './text.js';

/**
 * Tokens as OpenAI-style tokenizers count English, approximately: about four characters or
 * three quarters of a word per token, whichever gives more (short words, numbers and
 * punctuation cost more than four characters suggest).
 */
export function estimateTokens(text: string): number {
  return tokensFor(text.length, countWords(text), countWide(text));
}

function tokensFor(characters: number, words: number, wide: number): number {
  return Math.max(Math.ceil(characters / 4), Math.round((words * 4) / 3), wide);
}

/**
 * Chinese, Japanese and Korean characters cost about a token each, and their text has few
 * spaces to count words by: without this, such text would be estimated at a quarter of its cost.
 */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

const WIDE_ONE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

function countWide(text: string): number {
  return text.match(WIDE)?.length ?? 0;
}

function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** A piece of text and where it starts: a new paragraph or the same one. */
interface Piece {
  text: string;
  newParagraph: boolean;
}

/** A word longer than the budget, in slices that each fit it (wide characters cost a token each). */
function sliceWord(word: string, maxTokens: number): string[] {
  const slices: string[] = [];
  let slice = '';
  let length = 0;
  let wide = 0;
  for (const character of word) {
    const isWide = WIDE_ONE.test(character) ? 1 : 0;
    if (slice !== '' && tokensFor(length + character.length, 1, wide + isWide) > maxTokens) {
      slices.push(slice);
      slice = '';
      length = 0;
      wide = 0;
    }
    slice += character;
    length += character.length;
    wide += isWide;
  }
  if (slice !== '') slices.push(slice);
  return slices;
}

/** Words of a sentence too long for the budget, in runs that fit (a word too long, in slices). */
function splitLongSentence(sentence: string, maxTokens: number): string[] {
  const out: string[] = [];
  let current = '';
  // Running counts, so that a long sentence costs one pass, not one estimate per word.
  let length = 0;
  let words = 0;
  let wide = 0;
  for (const word of sentence.split(/\s+/)) {
    if (word === '') continue;
    const slices = estimateTokens(word) > maxTokens ? sliceWord(word, maxTokens) : [word];
    for (const slice of slices) {
      const sliceWide = countWide(slice);
      const separator = current === '' ? 0 : 1;
      if (current !== '' && tokensFor(length + separator + slice.length, words + 1, wide + sliceWide) > maxTokens) {
        out.push(current);
        current = slice;
        length = slice.length;
        words = 1;
        wide = sliceWide;
        continue;
      }
      current = current === '' ? slice : `${current} ${slice}`;
      length += separator + slice.length;
      words += 1;
      wide += sliceWide;
    }
  }
  if (current !== '') out.push(current);
  return out;
}

function piecesOf(text: string, maxTokens: number): Piece[] {
  const pieces: Piece[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const trimmed = paragraph.trim();
    if (trimmed === '') continue;
    if (estimateTokens(trimmed) <= maxTokens) {
      pieces.push({ text: trimmed, newParagraph: true });
      continue;
    }
    let first = true;
    for (const sentence of tagSentences(trimmed)) {
      const parts =
        estimateTokens(sentence.text) <= maxTokens ? [sentence.text] : splitLongSentence(sentence.text, maxTokens);
      for (const part of parts) {
        pieces.push({ text: part, newParagraph: first });
        first = false;
      }
    }
  }
  return pieces;
}

/**
 * Chunks of at most `maxTokens` (by estimateTokens) that together hold the whole text in
 * order: paragraphs are joined by a blank line, sentences of one paragraph by a space. The
 * model is loaded only when some paragraph is longer than the budget.
 */
export function chunkText(text: string, maxTokens: number): string[] {
  if (!Number.isFinite(maxTokens) || maxTokens < 1) throw new RangeError('maxTokens must be at least 1');
  const budget = Math.floor(maxTokens);
  const normalized = normalizeText(text).trim();
  if (normalized === '') return [];
  if (estimateTokens(normalized) <= budget) return [normalized];

  const chunks: string[] = [];
  let current = '';
  let characters = 0;
  let words = 0;
  let wide = 0;
  for (const piece of piecesOf(normalized, budget)) {
    const separator = current === '' ? '' : piece.newParagraph ? '\n\n' : ' ';
    const pieceWords = countWords(piece.text);
    const pieceWide = countWide(piece.text);
    const fits =
      tokensFor(characters + separator.length + piece.text.length, words + pieceWords, wide + pieceWide) <= budget;
    if (current !== '' && !fits) {
      chunks.push(current);
      current = piece.text;
      characters = piece.text.length;
      words = pieceWords;
      wide = pieceWide;
      continue;
    }
    current += separator + piece.text;
    characters += separator.length + piece.text.length;
    words += pieceWords;
    wide += pieceWide;
  }
  if (current !== '') chunks.push(current);
  return chunks;
}
