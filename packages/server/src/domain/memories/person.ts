import type { Memory } from '../../model.js';
import { KeptByContent } from './kept-by-content.js';

/**
 * A question in the first person ("what did I…", "my current score") asks about its asker's own
 * statements. A memory that speaks in the first person states something of its speaker; one
 * that speaks mostly to "you" tells someone about them (an assistant's answer: "Congratulations
 * on your workshop!"), and repeats what it was told at best. Such a memory's relevance is
 * lowered by this share for a question in the first person that addresses no one ("you told
 * me…" asks for what was said to the asker, and changes nothing). 0.7: the least share that
 * ranked best on half of the LongMemEval development questions (0.2–0.85 tried; the other half
 * gained as much from 0.5 on; docs/ranking.md).
 */
export const ADDRESSED_SHARE = 0.7;

const FIRST = /\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b/gi;
const SECOND = /\b(?:you|you're|you've|you'd|you'll|your|yours|yourself)\b/gi;

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
const plain = (text: string) => text.replace(/[’]/g, "'");

/** Whether a query asks in the first person and addresses no one. */
export function asksOfItself(query: string): boolean {
  const text = plain(query);
  return count(text, FIRST) > 0 && count(text, SECOND) === 0;
}

/**
 * Long memories read for `addressed`, by id (KeptByContent): a search reads its 30 best, and an
 * assistant's answer of thousands of characters costs about 0.01 ms to read; a short one costs
 * less to read again than to keep.
 */
const readAddressed = new KeptByContent<boolean>(4_000_000);
const KEPT_FROM_CHARS = 1_000;

const speaksToYou = (content: string) => {
  const text = plain(content);
  return count(text, SECOND) > count(text, FIRST);
};

/** Whether a memory speaks more to "you" than of itself. */
export function addressed(memory: Pick<Memory, 'id' | 'content'>): boolean {
  return memory.content.length < KEPT_FROM_CHARS ? speaksToYou(memory.content) : readAddressed.get(memory, speaksToYou);
}

/** Lowers the memories addressed to someone, for a question asked of itself; sorts again. */
export function ownStatementsFirst<T extends { memory: Memory; relevance: number }>(query: string, hits: T[]): T[] {
  if (!asksOfItself(query) || hits.length === 0) return hits;
  return hits
    .map((hit) => (addressed(hit.memory) ? { ...hit, relevance: hit.relevance * (1 - ADDRESSED_SHARE) } : hit))
    .sort((a, b) => b.relevance - a.relevance);
}
