/**
 * Adjacent units about one idea become one group, and one group one snapshot (or one
 * knowledge entry): a paragraph is one idea unless a sentence inside it opens a new one, and a
 * short paragraph or speaker turn that goes on with the same words joins the one before.
 */
import {
  ADDITION_OPENER,
  CONCESSION_OPENERS,
  CONCLUSION_OPENER,
  OTHER_VOICE,
  REBUTTAL_OPENER,
  YES,
} from './argument-cues.js';
import { LESSONS_HEADER, MEETING_META, METHOD_CUES } from './cues.js';
import { cueWeight, type Unit } from './units.js';

export interface Group {
  heading: string | null;
  units: Unit[];
}

export const GROUPING = {
  /** A group holds at most this many units; the next one starts a new group. */
  maxUnits: 8,
  /** … and at most this many characters of text. */
  maxCharacters: 4000,
  /** A group with fewer content words than this is "thin": the next paragraph may join it. */
  thinContentWords: 6,
  /** A sentence with at least this cue weight may open a new idea inside a paragraph … */
  newIdeaCueWeight: 2,
  /** … when it also has at least this many content words. */
  minIdeaContentWords: 3,
} as const;

/** Verbs too common to show that two sentences are about the same thing. */
const WEAK_LEMMAS = new Set([
  'make',
  'get',
  'go',
  'take',
  'come',
  'see',
  'say',
  'think',
  'want',
  'use',
  'work',
  'thing',
]);

function sharesTopic(unit: Unit, group: Group): boolean {
  const words = new Set(group.units.flatMap((u) => u.content));
  return unit.content.some((word) => !WEAK_LEMMAS.has(word) && words.has(word));
}

function contentCount(group: Group): number {
  return group.units.reduce((sum, unit) => sum + unit.content.length, 0);
}

function characterCount(group: Group): number {
  return group.units.reduce((sum, unit) => sum + unit.text.length + 1, 0);
}

/**
 * A bulleted list whose items each state something of their own ("- Never deploy on a
 * Friday. - Always write the test first.") is a list of ideas, one group each; any other list
 * is the steps of the idea it follows.
 */
function isListOfIdeas(items: Unit[], header: Unit | undefined): boolean {
  if (items.length < 2) return false;
  // Decisions, action items and lessons are each one, numbered or not.
  if (items.every((item) => item.decision) || (header && LESSONS_HEADER.test(header.lower))) return true;
  if (items.some((item) => item.numbered)) return false;
  if (header && /\b(?:steps?|how|process|procedure|routine|method|checklist|protocol)\b/.test(header.lower))
    return false;
  const stated = items.filter((item) => cueWeight(item.typeScores) >= 1 && item.content.length >= 2);
  return stated.length * 2 >= items.length;
}

/** "To apply it, follow these steps:" names no list of its own: it goes on from the idea before. */
function introducesSteps(header: Unit): boolean {
  return (
    METHOD_CUES.some((cue) => cue.test(header.lower)) ||
    /\b(?:these|the following) steps\b|\bas follows\b|^(?:steps|here'?s how|how)\b/.test(header.lower)
  );
}

/**
 * A paragraph that opens by conceding, reporting the other side, adding a reason or drawing the
 * conclusion ("Admittedly, …", "Critics say …", "Besides, …", "Therefore, …") goes on with the
 * argument before it: one insight over two paragraphs is one snapshot.
 */
function continuesArgument(unit: Unit): boolean {
  const lower = unit.opener ? `${unit.opener} ${unit.lower}` : unit.lower;
  return [CONCESSION_OPENERS, CONCLUSION_OPENER, OTHER_VOICE, ADDITION_OPENER].some((cue) => cue.test(lower));
}

/**
 * In a transcript, the turns that object: another speaker's turn answered by the first speaker
 * conceding or rebutting ("Sam: we should … / Jordan: juniors are cheaper / Sam: Sure, but …").
 * Returns the blocks of such objections; their units are marked as the other side's voice.
 */
function objectionBlocks(units: Unit[]): Set<number> {
  const turns: Unit[][] = [];
  for (const unit of units) {
    if (unit.trivial || unit.speaker === null) continue;
    const last = turns.at(-1);
    if (last && last[0]!.block === unit.block) last.push(unit);
    else turns.push([unit]);
  }
  const blocks = new Set<number>();
  turns.forEach((turn, i) => {
    const before = turns[i - 1]?.[0];
    const after = turns[i + 1]?.[0];
    const first = turn[0]!;
    if (!before || !after || first.decision || before.speaker === first.speaker) return;
    if (after.speaker !== before.speaker) return;
    const answer = after.opener ? `${after.opener} ${after.lower}` : after.lower;
    if ([CONCESSION_OPENERS, REBUTTAL_OPENER, YES].some((cue) => cue.test(answer))) blocks.add(first.block);
  });
  return blocks;
}

export function groupUnits(units: Unit[]): Group[] {
  const objections = objectionBlocks(units);
  for (const unit of units) if (objections.has(unit.block)) unit.objection = true;
  const listsOfIdeas = new Set<number>();
  const byList = new Map<number, Unit[]>();
  for (const unit of units) {
    if (unit.list === null) continue;
    const members = byList.get(unit.list);
    if (members) members.push(unit);
    else byList.set(unit.list, [unit]);
  }
  for (const [list, members] of byList) {
    const items = members.filter((u) => u.kind === 'item');
    if (
      isListOfIdeas(
        items,
        members.find((u) => u.kind === 'header'),
      )
    )
      listsOfIdeas.add(list);
  }

  // A meeting's record (speaker turns, attendee lines, decisions): each rule stated in it is a
  // snapshot of its own, never the proof of what was said before it.
  const meeting = units.some((u) => u.speaker !== null || u.decision || MEETING_META.test(u.lower));
  const groups: Group[] = [];
  let current: Group | null = null;
  let currentBlock = -1;
  const start = (unit: Unit) => {
    current = { heading: unit.heading, units: [unit] };
    groups.push(current);
    currentBlock = unit.block;
  };

  for (const unit of units) {
    if (unit.trivial) continue;
    const group = current as Group | null;
    if (unit.list !== null && listsOfIdeas.has(unit.list)) {
      if (unit.kind === 'item') start(unit);
      continue;
    }
    // A decision is a snapshot of its own, and what follows it is not part of it.
    if (group === null || unit.heading !== null || unit.decision || group.units.some((u) => u.decision)) {
      start(unit);
      continue;
    }
    const newBlock = unit.block !== currentBlock;
    let opensNewGroup: boolean;
    if (unit.kind !== 'sentence') {
      // A list belongs to the idea before it, unless it has a name of its own ("The GTD
      // protocol:") in a paragraph of its own.
      opensNewGroup =
        newBlock &&
        unit.kind === 'header' &&
        unit.content.length >= 2 &&
        !introducesSteps(unit) &&
        !sharesTopic(unit, group);
    } else if (newBlock) {
      const goesOn =
        unit.objection ||
        unit.role === 'challenge' ||
        continuesArgument(unit) ||
        unit.role === 'method' ||
        unit.sequence ||
        (contentCount(group) < GROUPING.thinContentWords && sharesTopic(unit, group));
      opensNewGroup = !goesOn;
    } else {
      const opensIdea =
        unit.role === 'core' &&
        // "That is non-negotiable." is too short to be an idea of its own: it adds to the one before.
        unit.content.length >= GROUPING.minIdeaContentWords &&
        cueWeight(unit.typeScores) >= GROUPING.newIdeaCueWeight &&
        group.units.some((u) => u.role === 'core' && cueWeight(u.typeScores) >= 1.5) &&
        !sharesTopic(unit, group);
      const statesRule =
        meeting &&
        unit.role === 'core' &&
        (unit.typeScores.get('Rule') ?? 0) >= 1 &&
        unit.content.length >= GROUPING.minIdeaContentWords &&
        group.units.some((u) => u.kind === 'sentence' && u.role === 'core');
      opensNewGroup = opensIdea || statesRule;
    }
    // List items do not count towards the size of a group: a long list stays whole.
    const full =
      unit.kind === 'sentence' &&
      (group.units.filter((u) => u.kind === 'sentence').length >= GROUPING.maxUnits ||
        characterCount(group) + unit.text.length > GROUPING.maxCharacters);
    if (opensNewGroup || full) {
      start(unit);
      continue;
    }
    group.units.push(unit);
    currentBlock = unit.block;
  }
  return groups;
}
