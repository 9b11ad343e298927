/**
 * Reading a group's sentences as an argument: which one is the claim (the core), which support
 * it (proof), which voice the other side (challenge) and which answer that voice (a rebuttal,
 * proof again). Concessions are often a clause, not a sentence ("Of course he could advertise,
 * but that won't help"; "…, even if it rains"): such a sentence is cut at the clause and each
 * part goes to its own field. The markers are in argument-cues.ts; docs/extraction.md, "Reading
 * the argument", says what each bought on the measure.
 */
import {
  CLAIM_MARKERS,
  CONCEDING_REBUTTAL,
  CONCLUSION_INSIDE,
  LEADING_REASON,
  REBUTTAL_INSIDE,
  RESTATEMENT,
  TRAILING_REASON,
  YES,
  CONCEDING_FRAME,
  DOUBT,
  CONCESSION_OPENERS,
  CONCLUSION_OPENER,
  CONTRAST_INSIDE,
  LEADING_CONCESSION,
  OTHER_VOICE,
  REBUTTAL_OPENER,
  SPEECH_VERBS,
  SUPPORT_OPENER,
  TRAILING_CONCESSION,
  YIELDING_MODAL,
} from './argument-cues.js';
import { ARGUMENT, ARGUMENT_RULES } from './argument-rules.js';
import type { Unit } from './units.js';

export interface Argument {
  /** The claim: one sentence, or two when the next only restates it ("That is non-negotiable."). */
  core: Unit[];
  proof: Unit[];
  challenge: Unit[];
}

export { ARGUMENT, ARGUMENT_RULES };

/** The unit with other text: a clause of it. Tokens stay the sentence's (names and tags read them). */
function part(unit: Unit, text: string): Unit {
  const trimmed = text.trim().replace(/^[,;:\s]+|[,;:\s]+$/g, '');
  const written = /[.!?]["”')]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
  const capital = written.charAt(0).toUpperCase() + written.slice(1);
  return { ...unit, text: capital, lower: capital.toLowerCase() };
}

function words(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

/** Whose voice a sentence is in, and the clauses of it that are the other side's. */
interface Reading {
  unit: Unit;
  /** The author's part of the sentence, or null when all of it is the other side's. */
  own: Unit | null;
  /** The other side's part, or null. */
  other: Unit | null;
  /** A reason clause cut off the author's part ("…, as X"; "Since X, …"): proof. */
  reason: Unit | null;
  /** Answers what came before ("But …", "…, however, …", "… though."). */
  rebuts: boolean;
}

/** A third party's words reported ("My parents say …", "Ralf does insist that …"). */
function reportsOthers(unit: Unit): boolean {
  const tokens = unit.tokens.slice(0, 7);
  const verbAt = tokens.findIndex((t) => (t.pos === 'VERB' || t.pos === 'AUX') && SPEECH_VERBS.has(t.lemma));
  if (verbAt <= 0) return false;
  const subject = tokens.slice(0, verbAt);
  // "I say", "we argue", "you claim": the author or the reader, not the other side.
  if (subject.some((t) => /^(?:i|we|you|me|us)$/.test(t.normal))) return false;
  // "Seventy percent of people said …": a survey's finding, not the other side's voice.
  if (subject.some((t) => t.pos === 'NUM')) return false;
  return subject.some((t) => t.pos === 'NOUN' || t.pos === 'PROPN' || t.pos === 'PRON');
}

function otherVoice(unit: Unit, lower: string): boolean {
  return OTHER_VOICE.test(lower) || reportsOthers(unit);
}

/**
 * "But it remains doubtful whether X": doubt turned against what was said before is the other
 * side's; a sentence that only doubts ("It is doubtful that fines deter") may be the claim itself.
 */
function raisesDoubt(lower: string): boolean {
  return REBUTTAL_OPENER.test(lower) && DOUBT.test(lower);
}

/** The sentence as written, with the spoken opener the reader stripped ("Yes, …"). */
function spoken(unit: Unit): string {
  return unit.opener ? `${unit.opener} ${unit.lower}` : unit.lower;
}

/** Cuts "Z, as X" / "Since X, Z" into the claim Z and the reason X. */
function withReason(unit: Unit): { own: Unit; reason: Unit | null } {
  if (!ARGUMENT_RULES.reasonClauses) return { own: unit, reason: null };
  const leading = LEADING_REASON.exec(unit.lower);
  if (leading) {
    const comma = unit.text.indexOf(', ');
    const rest = comma < 0 ? '' : unit.text.slice(comma + 2);
    if (words(rest) >= ARGUMENT.minClauseWords && words(unit.text.slice(0, comma)) >= ARGUMENT.minClauseWords) {
      return { own: part(unit, rest), reason: part(unit, unit.text.slice(0, comma)) };
    }
    return { own: unit, reason: null };
  }
  const trailing = TRAILING_REASON.exec(unit.text);
  if (trailing && trailing.index > 0) {
    const own = unit.text.slice(0, trailing.index);
    const reason = unit.text.slice(trailing.index).replace(/^[,;]\s*/, '');
    if (words(own) >= ARGUMENT.minClauseWords && words(reason) >= ARGUMENT.minClauseWords) {
      return { own: part(unit, own), reason: part(unit, reason) };
    }
  }
  return { own: unit, reason: null };
}

/**
 * "Z: X, and Y": a claim with its verb before a colon is stated, what follows explains it, so
 * the claim stays Z and the rest is its reason. "A sad highlight: losing 60:87" has no verb
 * before the colon: a label, not a statement.
 */
function explained(unit: Unit): { own: Unit; reason: Unit | null } {
  if (!ARGUMENT_RULES.colonReasons) return { own: unit, reason: null };
  const colon = unit.tokens.findIndex((t) => t.text === ':');
  const at = unit.text.indexOf(': ');
  if (colon <= 0 || at <= 0) return { own: unit, reason: null };
  if (!unit.tokens.slice(0, colon).some((t) => t.pos === 'VERB' || t.pos === 'AUX')) return { own: unit, reason: null };
  const own = unit.text.slice(0, at);
  const reason = unit.text.slice(at + 2);
  // "The rule is simple: …" announces what follows; a claim before a colon says something itself.
  // "Let me be clear on this one: data must never …": the stance is after the colon, the claim too.
  if (words(own) < ARGUMENT.minStatedWords || words(reason) < ARGUMENT.minClauseWords)
    return { own: unit, reason: null };
  if (CLAIM_MARKERS.some((marker) => marker.test(reason.toLowerCase()))) return { own: unit, reason: null };
  return { own: part(unit, own), reason: part(unit, reason) };
}

/**
 * The unit with the opener the reader stripped put back when it concedes ("Yes, my knee might
 * hurt"): in the challenge, the "yes" is part of what is granted.
 */
function withOpener(unit: Unit): Unit {
  if (!YES.test(unit.opener)) return unit;
  const first = unit.text.split(/\s+/)[0] ?? '';
  // The reader capitalized the first word; the word as written is in the tokens.
  const written = unit.tokens.find(
    (t) => t.text.toLowerCase() === first.toLowerCase() && t.normal !== unit.opener.replace(/\W+$/, ''),
  );
  const word = written?.text ?? first;
  const opener = unit.opener.charAt(0).toUpperCase() + unit.opener.slice(1);
  return part(unit, `${opener}${/[,;:]$/.test(opener) ? '' : ','} ${word}${unit.text.slice(first.length)}`);
}

function read(unit: Unit): Reading {
  const lower = spoken(unit);
  const rebuts = REBUTTAL_OPENER.test(lower) || REBUTTAL_INSIDE.test(lower);
  const whole = (other: boolean): Reading =>
    other
      ? { unit, own: null, other: withOpener(unit), reason: null, rebuts }
      : { unit, ...withReason(unit), other: null, rebuts };

  const voiced =
    ARGUMENT_RULES.otherVoice &&
    (unit.objection || otherVoice(unit, lower) || CONCEDING_FRAME.test(lower) || raisesDoubt(lower));
  if (!ARGUMENT_RULES.concessions) return whole(voiced);

  // "Of course X, but Y" / "Admittedly X, but Y": X is the other side's, Y the author's answer.
  const opener = CONCESSION_OPENERS.exec(lower);
  if (opener) {
    const offset = unit.opener ? opener[0].length - unit.opener.length - 1 : opener[0].length;
    const from = Math.max(0, offset);
    const but = /,\s*(?:but|yet|however|still)\s+/.exec(unit.text.slice(from));
    if (but) {
      const at = from + but.index;
      const conceded = unit.text.slice(0, at);
      const answer = unit.text.slice(at + but[0].length);
      // "Sure, they're cheaper, but …": a concession may be two words.
      if (words(conceded) >= 2 && words(answer) >= ARGUMENT.minClauseWords) {
        return { unit, own: part(unit, answer), other: part(unit, conceded), reason: null, rebuts: true };
      }
    }
    return whole(true);
  }
  if (voiced) return whole(true);

  // "Although X, (and Y,) Z": X (and Y) conceded, Z the author's.
  if (LEADING_CONCESSION.test(lower)) {
    const clauses = unit.text.split(/,\s+/);
    let end = 1;
    // "…, and Y," adds to what is conceded; "…, which Z," says more of it.
    while (end < clauses.length - 1 && /^(?:and|or|which|who|whose|where)\b/i.test(clauses[end] ?? '')) end++;
    const conceded = clauses.slice(0, end).join(', ');
    const rest = clauses.slice(end).join(', ');
    if (end < clauses.length && words(rest) >= ARGUMENT.minClauseWords) {
      return { unit, ...withReason(part(unit, rest)), other: part(unit, conceded), rebuts: false };
    }
  }
  // "Z, even if X" / "Z, although X": the same, the other way round.
  const trailing = TRAILING_CONCESSION.exec(unit.text);
  if (trailing && trailing.index > 0) {
    const own = unit.text.slice(0, trailing.index);
    const conceded = unit.text.slice(trailing.index).replace(/^[,;]\s*/, '');
    if (words(own) >= ARGUMENT.minClauseWords && words(conceded) >= ARGUMENT.minClauseWords) {
      return { unit, ...withReason(part(unit, own)), other: part(unit, conceded), rebuts };
    }
  }
  return whole(false);
}

/** Words that open a sentence by pointing back to what was said before. */
const BACK_POINTERS = new Set(['they', 'these', 'those', 'this', 'that', 'he', 'she', 'such']);

/** "They are the last places …", "This shows …": its subject is what the sentence before said. */
function pointsBack(unit: Unit): boolean {
  if (CONCLUSION_OPENER.test(unit.lower) || RESTATEMENT.test(unit.lower)) return false;
  const first = unit.tokens.find((t) => t.pos !== 'PUNCT' && !unit.opener.split(/\W+/).includes(t.normal));
  return first !== undefined && BACK_POINTERS.has(first.normal);
}

/**
 * "It would be appropriate to …", "it would be nice if …": a proposal weighed, a stance whatever
 * the adjective (read on the tags: "it would be in if …" weighs nothing).
 */
function weighsProposal(unit: Unit): boolean {
  const t = unit.tokens;
  for (let i = 0; i + 4 < t.length; i++) {
    if (t[i]!.normal !== 'it' || !/^(?:would|will|'d)$/.test(t[i + 1]!.normal) || t[i + 2]!.normal !== 'be') continue;
    let j = i + 3;
    if (t[j]!.pos === 'ADV') j++;
    if (t[j]?.pos === 'ADJ' && /^(?:to|if|that)$/.test(t[j + 1]?.normal ?? '')) return true;
  }
  return false;
}

/** How strongly a sentence reads as the claim the rest argues for. */
function claimScore(reading: Reading, index: number, readings: Reading[]): number {
  const own = reading.own!;
  const lower = spoken(reading.unit);
  let score = index === 0 ? ARGUMENT.firstBonus : 0;
  if (ARGUMENT_RULES.dependence) {
    // The claim is stated in its own words; a sentence that needs the one before to be read
    // ("They are …") elaborates it, and that one is what it supports.
    if (pointsBack(reading.unit)) score -= ARGUMENT.dependentPenalty;
    const next = readings[index + 1];
    if (next && pointsBack(next.unit)) score += ARGUMENT.supportedBonus;
  }
  // A conclusion drawn from a single statement ("X. Hence Y. …") with more argument after it is a
  // step of the argument, not its end: neither its marker nor the conclusion adverb counts as the
  // claim's. In "X. Hence Y." alone, Y is the end.
  const concludes = CONCLUSION_OPENER.test(own.lower) || CONCLUSION_INSIDE.test(own.lower);
  const step = ARGUMENT_RULES.conclusionSteps && concludes && index === 1 && readings.length > 2;
  if (concludes && !step) score += ARGUMENT.conclusionBonus;
  const stance = step ? own.lower.replace(/\b(?:therefore|thus|hence|consequently)\b/g, '') : own.lower;
  if (CLAIM_MARKERS.some((marker) => marker.test(stance)) || weighsProposal(own)) score += ARGUMENT.markerBonus;
  // A spoken "and" or "so" opens a sentence without linking it; a spoken "also" adds to one.
  if (SUPPORT_OPENER.test(reading.unit.lower) || reading.unit.opener === 'also') score -= ARGUMENT.supportPenalty;
  if (reading.rebuts && !CONCEDING_REBUTTAL.test(lower)) score -= ARGUMENT.rebuttalPenalty;
  return score;
}

/**
 * The argument of a group's statements (sentences with the role `core` or `challenge`, in
 * order). The sentence right before a rebuttal is a concession when it grants a possibility
 * ("could", "may") or says yes ("Yes, it is risky. But …"). A rebuttal that answers no
 * concession is a caveat: the other side's. Null when no statement is the author's.
 */
export function readArgument(statements: Unit[]): Argument | null {
  const readings = statements.map(read);
  readings.forEach((reading, i) => {
    const next = readings[i + 1];
    if (!ARGUMENT_RULES.concededBeforeRebuttal || !next?.rebuts || reading.other !== null) return;
    // A rebuttal that is itself the other side's ("Yet it remains doubtful …") concedes nothing.
    if (next.own === null) return;
    if (YIELDING_MODAL.test(reading.unit.lower) || YES.test(spoken(reading.unit))) {
      reading.other = withOpener(reading.unit);
      reading.own = null;
      reading.reason = null;
    }
  });
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  readings.forEach((reading, i) => {
    if (reading.own === null) return;
    const score = claimScore(reading, i, readings);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  if (best < 0) return null;
  if (ARGUMENT_RULES.answeredSentence) {
    readings.forEach((reading, i) => {
      const before = readings[i - 1];
      if (!reading.rebuts || !REBUTTAL_OPENER.test(spoken(reading.unit)) || !before || i - 1 === best) return;
      // "Nevertheless, one has to admit …" turns to the other side: it answers nothing of the author's.
      if (reading.own === null) return;
      if (before.other !== null || before.own === null || SUPPORT_OPENER.test(before.unit.lower)) return;
      if (CONCLUSION_OPENER.test(before.unit.lower) || CLAIM_MARKERS.some((m) => m.test(before.unit.lower))) return;
      // An objection raised earlier and not answered yet is what the rebuttal answers.
      if (unanswered(readings, i - 1)) return;
      before.other = before.unit;
      before.own = null;
      before.reason = null;
    });
  }
  if (ARGUMENT_RULES.answeredClause) {
    readings.forEach((reading, i) => {
      if (i !== best) answerInside(reading);
    });
  }
  const claimReading = readings[best]!;
  if (claimReading.reason === null) Object.assign(claimReading, explained(claimReading.own!));
  const claim = claimReading.own!;
  const next = readings[best + 1];
  const restates =
    ARGUMENT_RULES.restatement &&
    next !== undefined &&
    next.own === next.unit &&
    RESTATEMENT.test(next.unit.lower) &&
    words(next.unit.text) <= ARGUMENT.maxRestatementWords;
  const core = restates ? [stripConclusion(claim), next.unit] : [stripConclusion(claim)];
  // Read before the caveats move: a rebuttal that answers an objection raised earlier is no caveat.
  const answersEarlier = readings.map((_, i) => unanswered(readings, i));
  const proof: Unit[] = [];
  const challenge: Unit[] = [];
  readings.forEach((reading, i) => {
    if (reading.other) challenge.push(reading.other);
    if (reading.reason) proof.push(reading.reason);
    if (i === best || (restates && i === best + 1) || !reading.own) return;
    const caveat =
      ARGUMENT_RULES.caveats &&
      reading.rebuts &&
      i > 0 &&
      readings[i - 1]?.other === null &&
      reading.other === null &&
      !answersEarlier[i];
    (caveat ? challenge : proof).push(reading.own);
  });
  return { core, proof, challenge };
}

/** Whether a reading before `end` holds the other side's voice that no rebuttal has answered yet. */
function unanswered(readings: Reading[], end: number): boolean {
  let open = false;
  for (const reading of readings.slice(0, end)) {
    if (reading.rebuts && (reading.own !== null || reading.other === null)) open = false;
    if (reading.other !== null && !reading.rebuts) open = true;
  }
  return open;
}

/**
 * "X, but Y" in a sentence of the author's that is not the claim: Y answers X within the
 * sentence, so X is the objection and Y the rebuttal (proof). The claim's own "but" is not cut:
 * there it may as well qualify the claim as answer an objection.
 */
function answerInside(reading: Reading): void {
  if (reading.own !== reading.unit || reading.other !== null || reading.reason !== null) return;
  const unit = reading.unit;
  const contrast = CONTRAST_INSIDE.exec(unit.text);
  if (!contrast || contrast.index === 0) return;
  const conceded = unit.text.slice(0, contrast.index);
  const answer = unit.text.slice(contrast.index + contrast[0].length);
  if (words(conceded) < ARGUMENT.minClauseWords || words(answer) < ARGUMENT.minClauseWords) return;
  reading.other = part(unit, conceded);
  reading.own = part(unit, answer);
  reading.rebuts = true;
}

/** "That's why everyone should …" → "Everyone should …": the marker links, the claim is what follows. */
function stripConclusion(unit: Unit): Unit {
  const marker = CONCLUSION_OPENER.exec(unit.lower);
  if (!marker) return unit;
  const rest = unit.text.slice(marker[0].length);
  return words(rest) >= ARGUMENT.minClauseWords ? part(unit, rest) : unit;
}
