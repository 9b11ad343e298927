/**
 * Free text → memories: small, self-contained things worth remembering. Unlike snapshots they
 * are not grouped by idea: each sentence is one, except that a story told over several
 * sentences, a list with its header, and a sentence that only goes on from the one before
 * ("That is why …") stay together.
 */
import { SMALL_TALK } from './cues.js';
import { dateIn, type CalendarDate } from './dates.js';
import { plainText, type TextFormat } from './document.js';
import { MEMORY_CUES } from './memory-cues.js';
import { tagsFor } from './naming.js';
import { peopleOf } from './people.js';
import { speakerNames } from './structure.js';
import { clip, normalizeText } from './text.js';
import type { ExtractedMemory, MemoryType } from './types.js';
import { readUnits, type Unit } from './units.js';

/** A list longer than `listItems` goes on in a new memory, so that no item is clipped away. */
export const MEMORY_LIMITS = { content: 10_000, tags: 5, listItems: 20 } as const;

/** Opens a sentence that cannot stand alone: it belongs to the memory before it. */
const CONTINUATION =
  /^(?:that(?:'s| is| was) why|this (?:is|was|means|meant)|because\b|so that\b|which\b|as a result\b|it (?:was|is)\b)/;

function typeOf(units: Unit[]): MemoryType {
  const text = units.map((u) => u.lower).join(' ');
  // A decision or an action item ("Decision: …", the items under "Action items:") is one.
  if (units.some((u) => u.decision)) return 'decision';
  if (units.filter((u) => u.kind === 'item' || u.sequence).length >= 2) return 'framework';
  for (const [type, patterns] of MEMORY_CUES) if (patterns.some((p) => p.test(text))) return type;
  if (units.every((u) => u.kind === 'sentence' && u.role === 'story')) return 'story';
  return 'fact';
}

/**
 * The person a sentence opens with as its subject ("Tom prefers …", "Ana Ruiz moved …"): one or
 * two proper nouns, then a verb.
 */
function subjectPerson(unit: Unit): string | undefined {
  const [first, second, third] = unit.tokens;
  const verb = (t: typeof first) => t !== undefined && (t.pos === 'VERB' || t.pos === 'AUX');
  if (first?.pos !== 'PROPN' || !/^\p{Lu}/u.test(first.text)) return undefined;
  if (verb(second)) return first.text;
  if (second?.pos === 'PROPN' && /^\p{Lu}/u.test(second.text) && verb(third)) return `${first.text} ${second.text}`;
  return undefined;
}

/** The text's own date: a `Date:` line, else a date in its first line (the title). */
function textDate(text: string): CalendarDate | undefined {
  const lines = normalizeText(text).split('\n');
  const dated = lines.find((line) => /^\s*(?:date|when)\s*:/i.test(line)) ?? lines.find((line) => line.trim() !== '');
  return (dated && dateIn(dated)) || undefined;
}

function memoryOf(units: Unit[], people: ReadonlySet<string>, dated: CalendarDate | undefined): ExtractedMemory | null {
  const content = clip(
    units
      .map((u, i) => (u.kind === 'item' ? `${i === 0 ? '' : '\n'}- ${u.text}` : `${i === 0 ? '' : ' '}${u.text}`))
      .join(''),
    MEMORY_LIMITS.content,
  );
  if (content === '') return null;
  const memory: ExtractedMemory = {
    content,
    memory_type: typeOf(units),
    tags: tagsFor(units, '', people).slice(0, MEMORY_LIMITS.tags),
  };
  const lead = units[0]!;
  const speaker = lead.speaker ?? subjectPerson(lead);
  if (speaker) memory.speaker = speaker;
  // An event is dated by its own words ("On March 12 we moved …"); anything else said in a dated
  // text (a decision, a preference) by the text: "we ship on April 3" was decided on the day.
  const own = dateIn(content);
  const happened = memory.memory_type === 'event' || memory.memory_type === 'story';
  const when = happened ? (own ?? dated) : (dated ?? own);
  if (when) memory.occurred_on = when.year === null && dated?.year ? { ...when, year: dated.year } : when;
  return memory;
}

export function extractMemories(text: string, format?: TextFormat): ExtractedMemory[] {
  const runs: Unit[][] = [];
  let previous: Unit | null = null;
  const units = readUnits(plainText(text, format));
  for (const unit of units) {
    if (
      unit.trivial ||
      (unit.question && unit.content.length < 6) ||
      (SMALL_TALK.test(unit.lower) && unit.content.length < 5)
    ) {
      continue;
    }
    const run = runs.at(-1);
    const sameBlock = previous !== null && previous.block === unit.block;
    const joins =
      run !== undefined &&
      sameBlock &&
      ((unit.kind === 'item' && previous?.list === unit.list && run.length < MEMORY_LIMITS.listItems) ||
        (unit.kind === 'sentence' && previous?.kind === 'sentence' && CONTINUATION.test(unit.lower)) ||
        (unit.role === 'story' && previous?.role === 'story' && previous.kind === 'sentence') ||
        // "First, … Then, … Finally, …": one sequence, one memory.
        (unit.kind === 'sentence' && unit.sequence && previous?.sequence === true && !/^first/.test(unit.lower)));
    // A sentence of one content word ("That is non-negotiable.") says something only with the one before it.
    const tooShortAlone = unit.content.length < 2;
    if (joins || (tooShortAlone && run !== undefined && sameBlock)) run!.push(unit);
    else if (!tooShortAlone) runs.push([unit]);
    else continue;
    previous = unit;
  }
  // People's names are never tags (people.ts): read from the whole text, attendee lines included.
  const people = peopleOf(units, speakerNames(normalizeText(text)));
  // "Tom prefers …": the person a memory is about is no tag either.
  for (const run of runs) for (const word of subjectPerson(run[0]!)?.split(' ') ?? []) people.add(word.toLowerCase());
  const dated = textDate(text);
  return runs.map((run) => memoryOf(run, people, dated)).filter((memory): memory is ExtractedMemory => memory !== null);
}
