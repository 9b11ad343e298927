/**
 * The layout of a text before its sentences: paragraphs, headings, lists and speaker turns.
 * Sentence boundaries come from the model; line structure is read here, because the model
 * reads a numbered list as one long sentence.
 */
import { DECISION_LABEL, MEETING_META } from './cues.js';
import { removeHesitations, squash } from './text.js';

export interface ListItem {
  text: string;
  numbered: boolean;
}

export type Segment = { kind: 'prose'; text: string } | { kind: 'list'; header: string | null; items: ListItem[] };

export interface Block {
  /** The Markdown heading (or underlined title) the block stands under, when it is the first under it. */
  heading: string | null;
  /** Who speaks, when the block is a labelled speaker turn ("Sam: …"). */
  speaker: string | null;
  segments: Segment[];
}

const LIST_ITEM = /^\s*(?:(\d{1,3})[.)]|\(?([a-z])\)|[-*•‣▪◦]|step\s+(\d{1,3})\s*[:.)–-]?)\s+(\S.*)$/i;
const HEADING = /^\s*#{1,6}\s+(.+?)\s*#*\s*$/;
const TIMESTAMP = /^\s*[[(]?\d{1,2}:\d{2}(?::\d{2})?[\])]?\s*(?:[-–—]\s*)?/;
const SPEAKER = /^\s*((?:[A-Z][\w'.-]*)(?: [A-Z][\w'.-]*){0,2}|Q|A|Speaker \d+|Interviewer|Host|Guest)\s*:\s+(?=\S)/;
/** Labels that name a kind of statement, not a speaker: kept, they are cue phrases. */
const STATEMENT_LABELS = new Set([
  'rule',
  'principle',
  'belief',
  'model',
  'conviction',
  'note',
  'tip',
  'lesson',
  'takeaway',
  'insight',
  'definition',
  'example',
  'warning',
  'summary',
  'step',
  'steps',
  'quote',
  'decision',
  'important',
]);
const ENDS_SENTENCE = /[.!?:;"”')\]]$/;

interface Line {
  text: string;
  turn: boolean;
  speaker: string | null;
}

/** Drops timestamps and speaker labels; a labelled line starts a new speaker turn. */
function readLine(raw: string, speakers: ReadonlySet<string>): Line {
  let text = raw.replace(TIMESTAMP, '');
  const turn = text !== raw;
  const speaker = SPEAKER.exec(text);
  const label = speaker?.[1] ?? '';
  if (
    speaker &&
    !STATEMENT_LABELS.has(label.toLowerCase()) &&
    // "TODO: …" twice is two action items, not a speaker called TODO.
    !DECISION_LABEL.test(`${label.toLowerCase()}: `) &&
    (turn || speakers.has(label) || ROLE_LABEL.test(label))
  ) {
    text = text.slice(speaker[0].length);
    return { text: text.trimEnd(), turn: true, speaker: label };
  }
  return { text: text.trimEnd(), turn, speaker: null };
}

/** Splits into paragraphs at blank lines and at speaker turns. */
const ROLE_LABEL = /^(?:Q|A|Speaker \d+|Interviewer|Host|Guest|Moderator)$/;

/**
 * "Ana: …" is a speaker when Ana speaks more than once; a label seen once ("Runway: the
 * months of cash left") is more likely a term and its definition, and stays in the text.
 */
function speakersOf(lines: string[]): Set<string> {
  const seen = new Map<string, number>();
  for (const line of lines) {
    const label = SPEAKER.exec(line.replace(TIMESTAMP, ''))?.[1];
    if (label !== undefined) seen.set(label, (seen.get(label) ?? 0) + 1);
  }
  const repeated = [...seen].filter(([, count]) => count >= 2).map(([label]) => label);
  // In a transcript (a speaker heard twice, and three turns at least), a name heard once is a
  // speaker too ("Marco: we should cap retries" between Priya's turns); a statement label is not.
  const turns = [...seen.values()].reduce((sum, count) => sum + count, 0);
  if (repeated.length === 0 || turns < 3) return new Set(repeated);
  return new Set(
    [...seen.keys()].filter((label) => {
      const lower = `${label.toLowerCase()}: `;
      return !STATEMENT_LABELS.has(label.toLowerCase()) && !DECISION_LABEL.test(lower) && !MEETING_META.test(lower);
    }),
  );
}

function paragraphs(text: string): Line[][] {
  const out: Line[][] = [];
  let current: Line[] = [];
  const rawLines = text.split('\n');
  const speakers = speakersOf(rawLines);
  for (const raw of rawLines) {
    if (raw.trim() === '') {
      if (current.length > 0) out.push(current);
      current = [];
      continue;
    }
    const line = readLine(raw, speakers);
    if (line.turn && current.length > 0) {
      out.push(current);
      current = [];
    }
    if (line.text.trim() !== '') current.push(line);
  }
  if (current.length > 0) out.push(current);
  return out;
}

function itemOf(line: string): ListItem | null {
  const match = LIST_ITEM.exec(line);
  if (!match) return null;
  return {
    text: squash(removeHesitations(match[4] ?? '')),
    numbered: match[2] === undefined && !/^[-*•‣▪◦]/.test(line.trim()),
  };
}

/** One paragraph's lines as prose and lists; soft-wrapped lines are joined back. */
function segmentsOf(lines: string[]): Segment[] {
  const segments: Segment[] = [];
  let prose: string[] = [];
  let list: Extract<Segment, { kind: 'list' }> | null = null;
  const flushProse = () => {
    const text = squash(removeHesitations(prose.join(' ')));
    if (text !== '') segments.push({ kind: 'prose', text });
    prose = [];
  };
  lines.forEach((line, index) => {
    const item = itemOf(line);
    if (item) {
      if (!list) {
        // A line ending in a colon right before the list introduces it.
        const last = prose.at(-1);
        const header = last !== undefined && /:\s*$/.test(last) ? squash(last.replace(/:\s*$/, '')) : null;
        if (header !== null) prose.pop();
        flushProse();
        list = { kind: 'list', header, items: [] };
        segments.push(list);
      }
      if (item.text !== '') list.items.push(item);
      return;
    }
    const previous = lines[index - 1];
    if (list && previous !== undefined && !ENDS_SENTENCE.test(previous.trim()) && /^\s+/.test(line)) {
      // An indented continuation of the item above.
      const lastItem = list.items.at(-1);
      if (lastItem) lastItem.text = squash(`${lastItem.text} ${removeHesitations(line)}`);
      return;
    }
    list = null;
    prose.push(line.trim());
  });
  flushProse();
  return segments;
}

/**
 * A title written as plain text: a short first line with no closing punctuation, on its own
 * above more lines ("Why small teams win" then the paragraph), or alone in Title Case.
 */
function plainTitle(line: string, index: number, count: number, opensText: boolean): RegExpExecArray | null {
  if (index !== 0 || LIST_ITEM.test(line) || ENDS_SENTENCE.test(line.trim())) return null;
  const words = line.trim().split(/\s+/);
  if (words.length > 8) return null;
  // Alone on its line, only Title Case tells a title from an unpunctuated spoken sentence.
  if (count === 1 && !opensText && !isTitleCase(words)) return null;
  return /^\s*(.+?)\s*$/.exec(line);
}

function isTitleCase(words: string[]): boolean {
  const long = words.filter((word) => /^[A-Za-z]{4,}/.test(word));
  return long.length > 0 && long.every((word) => /^[A-Z]/.test(word));
}

/** The names that label speaker turns ("Sam: …" twice), not the roles ("Q", "Host"). */
export function speakerNames(text: string): string[] {
  return [...speakersOf(text.split('\n'))].filter((label) => !ROLE_LABEL.test(label));
}

export function readStructure(text: string): Block[] {
  const blocks: Block[] = [];
  let heading: string | null = null;
  const all = paragraphs(text);
  all.forEach((lines, paragraph) => {
    const bodyLines: string[] = [];
    // The text's own first line, alone above the rest, is its title even in sentence case.
    const opensText = paragraph === 0 && all.length > 1;
    // A turn starts a paragraph: its first line names the speaker.
    const speaker = lines[0]?.speaker ?? null;
    lines.forEach((line, index) => {
      const title =
        HEADING.exec(line.text) ?? (line.turn ? null : plainTitle(line.text, index, lines.length, opensText));
      if (title) {
        if (bodyLines.length > 0) blocks.push({ heading, speaker, segments: segmentsOf(bodyLines.splice(0)) });
        heading = squash(title[1] ?? '') || null;
        // A heading applies to the first block under it only.
        return;
      }
      bodyLines.push(line.text);
    });
    if (bodyLines.length === 0) return;
    const segments = segmentsOf(bodyLines);
    if (segments.length > 0) blocks.push({ heading, speaker, segments });
    heading = null;
  });
  return blocks;
}
