/**
 * Free text → specific-knowledge entries. Definitions and attributed quotes are taken out
 * sentence by sentence; a list under a name becomes a framework, protocol or technique; what
 * is left of each group is a case study, a principle or a concept.
 */
import { CASE_STUDY_CUES, DEFINITION_PATTERNS, LIST_KIND_CUES, QUOTE_PATTERNS } from './knowledge-cues.js';
import { readDocument, sectionSource, type TextFormat } from './document.js';
import { groupUnits, type Group } from './grouping.js';
import { nameFor } from './naming.js';
import { clip, squash, wordCount } from './text.js';
import type { SnapshotType } from '../../model.js';
import type { EntryType, ExtractedEntry } from './types.js';
import { cueWeight, readUnits, type Unit } from './units.js';

export interface KnowledgeContext {
  title: string;
  domain?: string | null;
  /** How to read the text (design §13.4); detected when not given. */
  format?: TextFormat | undefined;
}

/** Snapshot types whose cues make a passage a principle entry rather than a concept. */
const PRINCIPLED_TYPES: readonly SnapshotType[] = ['Principle', 'Rule', 'Conviction'];

export const ENTRY_LIMITS = { title: 500, content: 20_000 } as const;

/** Pronouns and the like cannot be the term a sentence defines ("This means that …"). */
const NOT_A_TERM =
  /^(?:it|this|that|these|those|which|what|he|she|they|we|i|you|there|here|all of this|so|note|tip|rule|warning|summary|example|lesson|takeaway|important|principle|quote|step \d+)$/i;

/** A term is a noun phrase: "what each item" is the start of a clause, not a term. */
const CLAUSE_WORD = /\b(?:what|how|why|when|where|who|which|whether|that|if)\b/i;

function entry(entry_type: EntryType, title: string, content: string): ExtractedEntry {
  return { entry_type, title: clip(squash(title), ENTRY_LIMITS.title), content: clip(content, ENTRY_LIMITS.content) };
}

function definitionOf(unit: Unit): ExtractedEntry | null {
  for (const pattern of DEFINITION_PATTERNS) {
    const match = pattern.exec(unit.text);
    const term = match?.groups?.term
      ?.replace(/^(?:an?|the)\s+/i, '')
      .replace(/["“”']/g, '')
      .trim();
    if (!term || NOT_A_TERM.test(term) || CLAUSE_WORD.test(term) || wordCount(term) > 6) continue;
    return entry('definition', term.charAt(0).toUpperCase() + term.slice(1), unit.text);
  }
  return null;
}

/** Quotes can run over several sentences, so they are found in the group's text as a whole. */
function quotesIn(units: Unit[]): { entries: ExtractedEntry[]; used: Set<Unit> } {
  const entries: ExtractedEntry[] = [];
  const used = new Set<Unit>();
  const spans: { unit: Unit; start: number; end: number }[] = [];
  let text = '';
  for (const unit of units) {
    if (text !== '') text += ' ';
    spans.push({ unit, start: text.length, end: text.length + unit.text.length });
    text += unit.text;
  }
  for (const pattern of QUOTE_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      const touched = spans.filter((s) => s.end > start && s.start < end);
      if (touched.some((s) => used.has(s.unit))) continue;
      const quote = squash(match.groups?.quote ?? '');
      const author = squash(match.groups?.author ?? '')
        .replace(/^(?:as|and|but|so|then)\s+/i, '')
        // The full stop that ends the sentence, not an initial's ("J. K. Rowling").
        .replace(/(?<!\b\p{Lu})\.$/u, '');
      if (wordCount(quote) < 3 || author === '') continue;
      touched.forEach((s) => used.add(s.unit));
      const content = touched.map((s) => s.unit.text).join(' ');
      entries.push(entry('quote', `“${clip(quote, 120)}” — ${author}`, content));
    }
  }
  return { entries, used };
}

function listKind(lead: string, numbered: boolean): EntryType {
  for (const [kind, pattern] of LIST_KIND_CUES) if (pattern.test(lead)) return kind;
  return numbered ? 'technique' : 'framework';
}

/** A list with the sentence or header that names it: a framework, protocol or technique. */
function listEntry(group: Group, items: Unit[], header: Unit | undefined, context: KnowledgeContext): ExtractedEntry {
  const lead = header ?? group.units.find((u) => u.kind === 'sentence');
  const naming = [group.heading ?? '', lead?.text ?? ''].join(' ').toLowerCase();
  const numbered = items.some((u) => u.numbered);
  const kind = listKind(naming, numbered);
  const title = lead ? nameFor(lead, group.units, group.heading) : (group.heading ?? `${context.title}: ${kind}`);
  const lines = items.map((u, i) => `${numbered ? `${i + 1}.` : '-'} ${u.text}`);
  const content = [lead?.text, ...lines].filter((line): line is string => Boolean(line)).join('\n');
  return entry(kind, title, content);
}

function restEntry(group: Group, rest: Unit[]): ExtractedEntry | null {
  const content = rest.filter((u) => !u.question || u.content.length >= 4);
  // A question sets the scene; the entry is named after the first statement.
  const lead = content.find((u) => !u.question) ?? content[0];
  if (!lead) return null;
  const words = content.reduce((sum, u) => sum + u.content.length, 0);
  const cues = content.reduce((sum, u) => sum + cueWeight(u.typeScores), 0);
  if (words < 6 && cues < 1) return null;
  const text = content.map((u) => u.text).join(' ');
  const title = nameFor(lead, content, group.heading);
  if (CASE_STUDY_CUES.some((cue) => cue.test(lead.lower))) return entry('case_study', title, text);
  const principled = content.some((u) => PRINCIPLED_TYPES.some((type) => (u.typeScores.get(type) ?? 0) >= 2));
  return entry(principled ? 'principle' : 'concept', title, text);
}

function entriesOf(group: Group, context: KnowledgeContext): ExtractedEntry[] {
  const out: ExtractedEntry[] = [];
  const taken = new Set<Unit>();
  const items = group.units.filter((u) => u.kind === 'item');
  const header = group.units.find((u) => u.kind === 'header');
  const { entries: quotes, used } = quotesIn(group.units.filter((u) => u.kind === 'sentence'));
  used.forEach((u) => taken.add(u));
  for (const unit of group.units) {
    // List items belong to their list ("2. Clarify what each item means …").
    if (taken.has(unit) || unit.kind !== 'sentence') continue;
    const definition = definitionOf(unit);
    if (definition) {
      out.push(definition);
      taken.add(unit);
    }
  }
  out.push(...quotes);
  if (items.length >= 2) {
    const listed = listEntry(
      group,
      items.filter((u) => !taken.has(u)),
      header,
      context,
    );
    out.push(listed);
    items.forEach((u) => taken.add(u));
    if (header) taken.add(header);
    // The sentence that introduced the list is in the list's entry already.
    if (!header) {
      const lead = group.units.find((u) => u.kind === 'sentence' && !taken.has(u));
      if (lead && /:\s*$/.test(lead.text)) taken.add(lead);
    }
  }
  const rest = restEntry(
    group,
    group.units.filter((u) => !taken.has(u) && u.kind !== 'header'),
  );
  if (rest) out.push(rest);
  return out;
}

/**
 * Entries for `POST /v1/specific-knowledge/ingest`, in the text's order. A text that gives no
 * entry by these rules still gives one: a concept titled after the source, holding the text.
 */
export function extractKnowledgeEntries(text: string, context: KnowledgeContext): ExtractedEntry[] {
  // A Markdown document section by section: each entry names the heading path it came from.
  const entries = readDocument(text, context.format).flatMap((part) => {
    const section = sectionSource(part.path);
    const found = groupUnits(readUnits(part.text)).flatMap((group) => entriesOf(group, context));
    return section === undefined ? found : found.map((e) => ({ ...e, section }));
  });
  if (entries.length > 0 || squash(text) === '') return entries;
  return [entry('concept', context.title.trim() || 'Untitled', squash(text))];
}
