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
  return tokensFor(text.length, countWords(text));
}

function tokensFor(characters: number, words: number): number {
  return Math.max(Math.ceil(characters / 4), Math.round((words * 4) / 3));
}

function countWords(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

/** A piece of text and where it starts: a new paragraph or the same one. */
interface Piece {
  text: string;
  newParagraph: boolean;
}

/** Words of a sentence too long for the budget, in runs that fit (a word too long, in slices). */
function splitLongSentence(sentence: string, maxTokens: number): string[] {
  const out: string[] = [];
  let current = '';
  const maxCharacters = maxTokens * 4;
  for (const word of sentence.split(/\s+/)) {
    const slices =
      word.length > maxCharacters ? (word.match(new RegExp(`[^]{1,${maxCharacters}}`, 'gu')) ?? []) : [word];
    for (const slice of slices) {
      const candidate = current === '' ? slice : `${current} ${slice}`;
      if (current !== '' && estimateTokens(candidate) > maxTokens) {
        out.push(current);
        current = slice;
      } else current = candidate;
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
  for (const piece of piecesOf(normalized, budget)) {
    const separator = current === '' ? '' : piece.newParagraph ? '\n\n' : ' ';
    const pieceWords = countWords(piece.text);
    const fits = tokensFor(characters + separator.length + piece.text.length, words + pieceWords) <= budget;
    if (current !== '' && !fits) {
      chunks.push(current);
      current = piece.text;
      characters = piece.text.length;
      words = pieceWords;
      continue;
    }
    current += separator + piece.text;
    characters += separator.length + piece.text.length;
    words += pieceWords;
  }
  if (current !== '') chunks.push(current);
  return chunks;
}
