/**
 * How a text is read before its sentences (design §13.4): as Markdown, section by section, or as
 * plain text. The format is the caller's (`format` in the request) or detected here.
 */
import { markdownSections, type Section } from './markdown.js';

export const TEXT_FORMATS = ['markdown', 'text'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

/**
 * Constructs only Markdown writes, each worth 2: an ATX heading, a code fence, a table's
 * delimiter row, a link or image with its address, a link reference definition, front matter,
 * an HTML block. Weak signs, worth 1 each: a bullet item, a block quote, `**strong**`, an
 * underlined heading. Plain prose scores 0: "Note: see below" or "1. first" alone do not make
 * Markdown.
 */
const STRONG_LINE = [
  /^#{1,6}\s+\S/,
  /^\s{0,3}(?:```|~~~)/,
  /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$/,
  /^\s{0,3}\[[^\]]+\]:\s*\S+/,
  /^\s{0,3}<(?:div|p|img|a|table|details|summary|picture|br|h[1-6]|!--)\b/i,
];
const STRONG_INLINE = /!?\[[^\]\n]{0,300}\]\([^()\s]{1,500}\)/g;
const WEAK_LINE = [/^\s*[-*+]\s+\S/, /^\s{0,3}>\s?\S/, /\*\*[^*\n]+\*\*/, /^\s{0,3}(?:=+|-+)\s*$/];
/** Score at which a text is Markdown: one strong construct, or two weak ones. */
const MARKDOWN_SCORE = 2;
/** Longer lines are not tested against the line patterns: a heading or a fence is short. */
const LINE_MAX = 2000;

/** Reads the format from the constructs a text uses; one pass over its lines. */
export function detectFormat(text: string): TextFormat {
  let score = text.startsWith('---\n') || text.startsWith('+++\n') ? 2 : 0;
  for (const line of text.split('\n')) {
    if (line.length > LINE_MAX) continue;
    if (STRONG_LINE.some((pattern) => pattern.test(line))) score += 2;
    else if (WEAK_LINE.some((pattern) => pattern.test(line))) score += 1;
    score += 2 * (line.match(STRONG_INLINE)?.length ?? 0);
    if (score >= MARKDOWN_SCORE) return 'markdown';
  }
  return 'text';
}

/**
 * What only Markdown's parser reads right, inside a line (its list marker taken off): code,
 * HTML and autolinks, emphasis, strikethrough, escapes, entities, links and images with their
 * address or reference, link definitions, GFM's bare addresses and task boxes, box-drawing
 * diagrams. A bracket alone ("[00:03] Sam: …") is text for the parser too.
 */
const PARSER_INLINE = [
  /[`<*_~\\\u2500-\u259f\u25a0-\u25ff\u2190-\u21ff\u27f0-\u27ff]/u,
  /\]\(|\]\[|\]:|!\[|^\[[ xX]\]/,
  /&(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);/i,
  /https?:\/\/|www\.|\S@\S+\.\w/i,
];
/**
 * What only the parser reads right as a line: a heading, a quote, a setext underline, a
 * thematic break or front-matter fence, a table's delimiter row.
 */
const PARSER_LINE = /^\s{0,3}(?:#{1,6}(?:\s|$)|>|[=-]+\s*$|\+{3}\s*$)|^[\s|:-]*\|[\s|:-]*-[\s|:-]*$/;
/** A list item as the line reader knows it (structure.ts): `- `, `* `, `• `, `1. `, `1) `. */
const BULLET = /^\s*(?:[-*•]|\d{1,3}[.)])\s+/;
/** Indented code: four spaces or a tab after a blank line, when the line is no list item. */
const INDENTED = /^(?: {4}|\t)/;

/**
 * Markdown that uses nothing but paragraphs and list items, laid out as the parser would read
 * them, reads the same line by line (structure.ts) as through the parser, which costs about as
 * much as the rest of the extraction (micromark with GFM: some 3 µs a character). The layout:
 * each block (lines between blank lines) is prose, a list, or prose whose last line ends in a
 * colon with its list below ("Decisions:" then the items); a line of prose below an item would be
 * part of the item for the parser, and a colon line without its list is left out by it. One pass
 * over the lines.
 */
function onlyParagraphsAndLists(text: string): boolean {
  let state: 'blank' | 'prose' | 'list' = 'blank';
  let colon = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (state === 'prose' && colon) return false;
      state = 'blank';
      continue;
    }
    const item = BULLET.exec(line);
    if (PARSER_LINE.test(line) || (state === 'blank' && !item && INDENTED.test(line))) return false;
    const inner = item ? line.slice(item[0].length) : line;
    if (PARSER_INLINE.some((pattern) => pattern.test(inner))) return false;
    if (item) {
      if (state === 'prose' && !colon) return false;
      state = 'list';
    } else {
      if (state === 'list') return false;
      state = 'prose';
      colon = /:\s*$/.test(line);
    }
  }
  return !(state === 'prose' && colon);
}

/** The text's sections: Markdown by its headings, plain text as one section without a path. */
export function readDocument(text: string, format?: TextFormat): Section[] {
  const read = format ?? detectFormat(text);
  return read === 'markdown' && !onlyParagraphsAndLists(text) ? markdownSections(text) : [{ path: [], text }];
}

/** A section's heading path as a snapshot's `source` names it ("Guide > Setup"). */
export function sectionSource(path: string[]): string | undefined {
  return path.length > 0 ? path.join(' > ') : undefined;
}

/** The whole text as plain prose (for an LLM's prompt): each section under its heading. */
export function plainText(text: string, format?: TextFormat): string {
  return readDocument(text, format)
    .map((s) => (s.path.length > 0 ? `${'#'.repeat(s.path.length)} ${s.path.at(-1)}\n\n${s.text}` : s.text))
    .join('\n\n');
}

export type { Section };
