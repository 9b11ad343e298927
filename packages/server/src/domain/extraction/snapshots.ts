/**
 * Free text → snapshots: one per group of units about one idea (grouping.ts), its fields
 * filled from the roles its sentences play.
 */
import type { SnapshotType } from '../../model.js';
import { SNAPSHOT_LIMITS } from '../snapshots/index.js';
import { readArgument } from './argument.js';
import { readDocument, sectionSource, type TextFormat } from './document.js';
import { EMPHASIS, HEDGE, TYPE_PRIORITY } from './cues.js';
import { groupUnits, type Group } from './grouping.js';
import { nameFor, subjectNouns, tagsFor } from './naming.js';
import { peopleOf } from './people.js';
import { speakerNames } from './structure.js';
import { clip, normalizeText, squash } from './text.js';
import type { ExtractedSnapshot } from './types.js';
import { cueWeight, readUnits, type Unit } from './units.js';

export const SNAPSHOT_RULES = {
  /** At most this many snapshots from one text: the most significant, in the text's order. */
  maxSnapshots: 50,
  /** A group without a cue phrase needs at least this many content words to be an insight. */
  minContentWords: 6,
  /** … and even with a cue, at least this many. */
  minCuedContentWords: 2,
  /** Two or more sentences opening with first/then/finally make steps. */
  minSequenceSentences: 2,
  /** A group that is only narrative needs this many sentences (or a cue) to be an insight. */
  minStorySentences: 2,
  /** A spoken turn with cues this strong (a stated belief or lesson), or any rule, is kept on any subject. */
  spokenCueWeight: 1.5,
  /** … else it must use this many of the nouns the conversation comes back to. */
  spokenSubjectNouns: 2,
} as const;

function hasCue(unit: Unit): boolean {
  return cueWeight(unit.typeScores) >= 1;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** The type whose cues weigh most over the core sentences, the first counted twice. */
function typeOf(core: Unit[]): SnapshotType {
  const totals = new Map<SnapshotType, number>();
  core.forEach((unit, index) => {
    for (const [type, weight] of unit.typeScores) {
      totals.set(type, (totals.get(type) ?? 0) + weight * (index === 0 ? 2 : 1));
    }
  });
  let best: SnapshotType = 'Belief';
  let bestScore = 0;
  for (const type of TYPE_PRIORITY) {
    const score = totals.get(type) ?? 0;
    if (score > bestScore) {
      best = type;
      bestScore = score;
    }
  }
  return best;
}

function countMatches(pattern: RegExp, text: string): number {
  return text.match(pattern)?.length ?? 0;
}

/** 0.6, up 0.1 per emphatic word (≤ 0.3), down 0.15 per hedge (≤ 0.45); within [0.15, 0.95]. */
function confidenceOf(core: Unit[]): number {
  const text = core.map((u) => u.lower).join(' ');
  const up = Math.min(0.3, 0.1 * countMatches(EMPHASIS, text));
  const down = Math.min(0.45, 0.15 * countMatches(HEDGE, text));
  return round2(clamp(0.6 + up - down, 0.15, 0.95));
}

/**
 * 0.3, plus up to 0.25 for the strength of its cue phrases, up to 0.2 for the fields beyond
 * the core the text gave it, and up to 0.2 for how many of the text's key words it uses.
 */
function significanceOf(core: Unit[], extraFields: number, group: Group, keyWords: Set<string>): number {
  const cues = Math.min(1, core.reduce((sum, u) => sum + cueWeight(u.typeScores), 0) / 4);
  const words = new Set(group.units.flatMap((u) => u.content));
  let central = 0;
  for (const word of words) if (keyWords.has(word)) central++;
  return round2(clamp(0.3 + 0.25 * cues + 0.05 * extraFields + 0.2 * Math.min(1, central / 4), 0.05, 0.95));
}

/** The words used most across the whole text: a group that uses them is central to it. */
function keyWordsOf(units: Unit[]): Set<string> {
  const counts = new Map<string, number>();
  for (const unit of units) for (const word of new Set(unit.content)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const ranked = [...counts.entries()].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return new Set(ranked.slice(0, 12).map(([word]) => word));
}

function joined(units: Unit[], max: number): string | undefined {
  if (units.length === 0) return undefined;
  return clip(units.map((u) => u.text).join(' '), max) || undefined;
}

function numbered(units: Unit[]): string {
  return units.map((u, i) => `${i + 1}. ${u.text.replace(/^(?:step\s+\d+\s*[:.)-]?\s*)/i, '')}`).join('\n');
}

interface Draft {
  snapshot: ExtractedSnapshot;
  order: number;
}

/** The sentences of a group sorted into the fields they fill. */
interface Roles {
  core: Unit[];
  proof: Unit[];
  story: Unit[];
  method: Unit[];
  steps: Unit[];
  challenge: Unit[];
}

/** Which unit fills which field (docs/extraction.md, "Sentence roles"); null when nothing is said. */
function rolesOf(group: Group): Roles | null {
  const sentences = group.units.filter((u) => u.kind === 'sentence' && !u.question);
  const questions = group.units.filter((u) => u.kind === 'sentence' && u.question);
  const headers = group.units.filter((u) => u.kind === 'header');
  const items = group.units.filter((u) => u.kind === 'item');
  const sequenced = sentences.filter((u) => u.sequence && u.role === 'core');
  const stepSentences = sequenced.length >= SNAPSHOT_RULES.minSequenceSentences ? sequenced : [];

  // A past-tense sentence without a cue right after a story sentence goes on with the story.
  const storyLike = new Set(sentences.filter((u) => u.role === 'story'));
  sentences.forEach((unit, i) => {
    const before = sentences[i - 1];
    if (unit.role === 'core' && unit.past && !hasCue(unit) && before && storyLike.has(before)) storyLike.add(unit);
  });
  const statements = sentences.filter(
    (u) => (u.role === 'core' || u.role === 'challenge') && !storyLike.has(u) && !stepSentences.includes(u),
  );
  // The claim is the core; the other statements are its proof or the other side's (argument.ts).
  const argument = readArgument(statements);
  let core = argument ? argument.core : [];
  const proof = argument?.proof ?? [];
  const challenge = argument?.challenge ?? statements;
  let story = sentences.filter((u) => storyLike.has(u));
  // A list header that says how ("To apply it, follow these steps") is the method.
  let method = [
    ...sentences.filter((u) => u.role === 'method'),
    ...headers.filter((u) => /\bhow\b|\bto\b/.test(u.lower)),
  ];
  const steps = [...stepSentences, ...items];
  if (core.length === 0) {
    // A group of only a story (or only a list) still says something: that becomes the core.
    const fallback = [story, headers, questions, method, challenge, items].find((units) => units.length > 0) ?? [];
    core = fallback.slice(0, 3);
    // One sentence of narrative with no cue is an event, not an insight.
    if (fallback === story && story.length < SNAPSHOT_RULES.minStorySentences && !story.some(hasCue)) return null;
    if (fallback === story) story = [];
    method = method.filter((u) => !core.includes(u));
  }
  // A list item that is the core is not also a step of it.
  const ownSteps = steps.filter((u) => !core.includes(u));
  return core.length > 0 ? { core, proof, story, method, steps: ownSteps, challenge } : null;
}

/** Whether a group says enough to be a snapshot (docs/extraction.md, "Grouping", minimum). */
function saysEnough(group: Group, roles: Roles): boolean {
  const cueTotal = roles.core.reduce((sum, u) => sum + cueWeight(u.typeScores), 0);
  const contentWords = group.units.reduce((sum, u) => sum + u.content.length, 0);
  // A list item is short by nature: one of a list of ideas stands as it is.
  const listed = roles.steps.length > 0 || group.units.some((u) => u.kind === 'item');
  if (cueTotal < 1 && contentWords < SNAPSHOT_RULES.minContentWords && !listed) return false;
  // A cue with nothing to say ("I believe.", "Rule:") is not a statement; inside a group, a short
  // cued sentence ("That is non-negotiable.") still adds to the one before it.
  return contentWords >= SNAPSHOT_RULES.minCuedContentWords;
}

/**
 * Spoken turns hold small talk at any length ("the goats got into the recycling"). A turn that
 * decides nothing and states no rule, belief or lesson is kept only when it is on the meeting's
 * subject: it uses two of the nouns the conversation keeps coming back to, or one and a figure
 * or a finding ("Seventy percent of people lose the remote", "the outage showed that …").
 */
const FINDING =
  /\b(?:learned|learnt|found|find|showed|shows|shown|realized|realised|discovered|proved|proves|confirmed|turns out|turned out)(?: \w+)? that\b/;
function onTheSubject(group: Group, roles: Roles, subjects: Set<string>): boolean {
  if (!group.units.every((u) => u.speaker !== null) || group.units.some((u) => u.decision)) return true;
  if (roles.core.some((u) => (u.typeScores.get('Rule') ?? 0) >= 1) || group.units.some((u) => FINDING.test(u.lower)))
    return true;
  const nouns = new Set(group.units.flatMap((u) => u.tokens).map((t) => t.lemma));
  const used = [...subjects].filter((noun) => nouns.has(noun)).length;
  // A stated belief or lesson is kept when it is about the meeting's subject or says enough on
  // its own; "I think my camera froze" is a belief's words about nothing the meeting is about.
  const believed = roles.core.some((u) => cueWeight(u.typeScores) >= SNAPSHOT_RULES.spokenCueWeight);
  const said = group.units.reduce((sum, u) => sum + u.content.length, 0);
  if (believed && (used >= 1 || said >= SNAPSHOT_RULES.minContentWords)) return true;
  const figure = group.units.some((u) => u.tokens.some((t) => t.pos === 'NUM' && t.normal !== 'one'));
  return used >= SNAPSHOT_RULES.spokenSubjectNouns || (used >= 1 && figure);
}

interface TextFacts {
  keyWords: Set<string>;
  people: Set<string>;
  subjects: Set<string>;
}

function draftOf(group: Group, { keyWords, people, subjects }: TextFacts, order: number): Draft | null {
  const roles = rolesOf(group);
  if (!roles || !saysEnough(group, roles) || !onTheSubject(group, roles, subjects)) return null;
  const { core, proof, story, method, steps, challenge } = roles;
  const lead = core[0]!;
  const name = nameFor(lead, group.units, group.heading);
  const extraFields = [proof, story, method, steps, challenge].filter((units) => units.length > 0).length;
  const snapshot: ExtractedSnapshot = {
    name,
    core: clip(core.map((u) => u.text).join(' '), SNAPSHOT_LIMITS.core) || name,
    type: typeOf(core),
    one_liner: clip(lead.text, SNAPSHOT_LIMITS.one_liner) || name,
    tags: tagsFor(group.units, name, people),
    confidence: confidenceOf(core),
    significance_score: significanceOf(core, extraFields, group, keyWords),
  };
  const storyText = joined(story, SNAPSHOT_LIMITS.text);
  const methodText = joined(method, SNAPSHOT_LIMITS.text);
  const stepsText = steps.length > 0 ? clip(numbered(steps), SNAPSHOT_LIMITS.text) : undefined;
  const challengeText = joined(challenge, SNAPSHOT_LIMITS.text);
  const proofText = joined(proof, SNAPSHOT_LIMITS.text);
  if (proofText) snapshot.proof = proofText;
  if (storyText) snapshot.story = storyText;
  if (methodText) snapshot.method = methodText;
  if (stepsText) snapshot.steps = stepsText;
  if (challengeText) snapshot.challenge = challengeText;
  return { snapshot, order };
}

/**
 * The snapshots of a text: a Markdown document section by section, each snapshot naming its
 * heading path as its `source`; plain text as one section. At most `maxSnapshots`, the most
 * significant, in the text's order.
 */
export function extractSnapshots(text: string, format?: TextFormat): ExtractedSnapshot[] {
  const drafts: Draft[] = [];
  for (const section of readDocument(text, format)) {
    const source = sectionSource(section.path);
    const heading = section.path.at(-1);
    // A heading that says something names the first snapshot under it; "Install" is a label.
    const named = heading !== undefined && heading.split(' ').length >= 3 ? `# ${heading}\n\n` : '';
    for (const snapshot of sectionSnapshots(named + section.text)) {
      drafts.push({ snapshot: source === undefined ? snapshot : { ...snapshot, source }, order: drafts.length });
    }
  }
  return mostSignificant(drafts).map((draft) => draft.snapshot);
}

function mostSignificant(drafts: Draft[]): Draft[] {
  if (drafts.length <= SNAPSHOT_RULES.maxSnapshots) return drafts;
  return [...drafts]
    .sort((a, b) => b.snapshot.significance_score - a.snapshot.significance_score || a.order - b.order)
    .slice(0, SNAPSHOT_RULES.maxSnapshots)
    .sort((a, b) => a.order - b.order);
}

function sectionSnapshots(text: string): ExtractedSnapshot[] {
  const units = readUnits(text);
  const keyWords = keyWordsOf(units);
  const people = peopleOf(units, speakerNames(normalizeText(text)));
  const groups = groupUnits(units);
  const facts: TextFacts = { keyWords, people, subjects: subjectNouns(units.filter((u) => u.speaker !== null)) };
  // The text's own title (its first line, not a Markdown heading) names the one snapshot of a
  // short text; over several, it names the text, not the first of them ("Weekly sync, 14 March").
  const firstLine = squash(normalizeText(text).trim().split('\n')[0] ?? '');
  if (groups.length > 1 && !firstLine.startsWith('#')) {
    for (const group of groups) if (group.heading === firstLine) group.heading = null;
  }
  const drafts = groups
    .map((group, order) => draftOf(group, facts, order))
    .filter((draft): draft is Draft => draft !== null);
  return mostSignificant(drafts).map((draft) => draft.snapshot);
}
