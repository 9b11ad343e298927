/**
 * Plain-text helpers: the clean-up applied before reading, and clipping to a field's limit.
 */
import { normalizeTranscript } from './transcript.js';

/**
 * Line ends, tabs, typographic apostrophes and invisible characters, made uniform; a meeting
 * tool's export (WebVTT, SRT, Otter, Zoom chat) brought to `Speaker: words` lines.
 */
export function normalizeText(text: string): string {
  return normalizeTranscript(
    text
      .replace(/\r\n?/g, '\n')
      // Zero-width characters, the byte-order mark and other control characters carry no words.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u200B-\u200D\uFEFF\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/[\t\u00A0]/g, ' ')
      .replace(/[\u2018\u2019\u02BC]/g, "'"),
  );
}

/**
 * Hesitations that a transcript writes down but a reader skips ("um", "uh", "you know,"):
 * removed inside sentences so that what is left reads as the speaker meant it.
 */
const HESITATIONS = /(?<![\w'-])(?:u+h*m+|u+h+|e+r+m+|h+m+|m+h*m+|uh-huh|mm-hmm)(?![\w'-])[,.]?[ ]*/gi;
/** A parenthetical "you know," or "I mean,": with the comma before it too, so "that, you know, the" reads "that the". */
const FILLER_PHRASES = /(,?)[ ]*(?<![\w'-])(?:you know|i mean|kind of like|sort of like),[ ]*(\S?)/gi;

export function removeHesitations(text: string): string {
  return text
    .replace(HESITATIONS, '')
    .replace(FILLER_PHRASES, (_, comma: string, next: string) => (comma ? ` ${next}` : next.toUpperCase()))
    .replace(/ {2,}/g, ' ')
    .replace(/ ([,.!?;:])/g, '$1');
}

/**
 * Openers that carry no meaning at the start of a spoken sentence ("So, …", "Well, …",
 * "Okay so …"). Words that can carry meaning ("now", "right", "actually") go only before a comma.
 */
const OPENERS =
  /^(?:(?:so|well|okay|ok|yeah|yes|anyway|and|also|oh)\b,?\s+|(?:right|now|look|listen|basically|honestly|actually|alright|sure)\s*,\s*)+/i;

export function stripOpeners(sentence: string): string {
  const stripped = sentence.replace(OPENERS, '');
  if (stripped === sentence || stripped.split(/\s+/).length < 3) return sentence;
  return capitalize(stripped);
}

export function capitalize(text: string): string {
  return text.length > 0 ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Collapses runs of white space (new lines included) to one space. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Length in characters (code points), the unit the validator counts in. */
export function characters(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/**
 * At most `max` characters, cut at the last word boundary that fits (an ellipsis marks the
 * cut), never in the middle of a word unless one word alone is longer than the limit, and
 * never in the middle of a surrogate pair.
 */
export function clip(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max || characters(trimmed) <= max) return trimmed;
  const points = Array.from(trimmed);
  const room = points.slice(0, max - 1).join('');
  const boundary = room.search(/\s+\S*$/);
  const cut = boundary > max / 2 ? room.slice(0, boundary) : room;
  return `${cut.replace(/[\s,;:–—-]+$/, '')}…`;
}

export function wordCount(text: string): number {
  const words = text.trim().match(/\S+/g);
  return words ? words.length : 0;
}
