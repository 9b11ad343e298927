/**
 * The weights and rules of the argument reader (argument.ts), apart so that
 * bench/extraction-ablation.mjs can set each weight to 0 and switch each rule off in turn.
 */

export const ARGUMENT = {
  /** The first statement of a group states its claim more often than not: a tie-break below any stance marker. */
  firstBonus: 0.8,
  conclusionBonus: 3,
  markerBonus: 1,
  supportPenalty: 2,
  rebuttalPenalty: 1,
  /** A sentence that opens by pointing back ("They are …", "This means …") depends on another. */
  dependentPenalty: 1,
  /** … and the sentence it points back to is what it elaborates. */
  supportedBonus: 0.5,
  /** A sentence after the claim that points back to it ("This is …") and is this short restates it. */
  maxRestatementWords: 8,
  /** A clause cut off a sentence keeps at least this many words, else the sentence stays whole. */
  minClauseWords: 3,
  /** A clause before a colon states a claim of its own (not "The rule is simple:") from this many words. */
  minStatedWords: 6,
} as const;

/**
 * Each reading rule, on unless switched off: bench/extraction-ablation.mjs switches them off one
 * at a time to measure what each buys (docs/extraction.md, "What each rule bought").
 */
export const ARGUMENT_RULES = {
  /** "Of course X, but Y", "Although X, Y", "Y, even if X": the conceded clause is the challenge. */
  concessions: true,
  /** "Critics say …", "one could object …", "My parents say …": the other side's voice. */
  otherVoice: true,
  /** "Yes, it may be risky. But …": a yielding sentence before a rebuttal is conceded. */
  concededBeforeRebuttal: true,
  /** A "however" sentence that answers no concession is a caveat: the challenge. */
  caveats: true,
  /** "Z, because X" / "Since X, Z": the reason is proof, the claim stays short. */
  reasonClauses: true,
  /** "Z: X, and Y": what follows a stated clause's colon is its reason, proof. */
  colonReasons: true,
  /** A sentence opening with a word that points back is not the claim; the one it points to gains. */
  dependence: true,
  /** "X. Hence Y. …" (Y the second of three or more statements): Y concludes from one statement, a step, not the claim. */
  conclusionSteps: true,
  /** "That is non-negotiable." after the claim joins the core. */
  restatement: true,
  /**
   * "… X. But Y.": a rebuttal answers the sentence before it. When that sentence is not the
   * claim and does not open as support, it is the objection; the rebuttal is the author's.
   */
  answeredSentence: true,
  /**
   * "X, but Y" inside a sentence that is not the claim: Y answers X, as a "But …" sentence
   * answers the one before it, so X is the objection and Y the author's rebuttal.
   */
  answeredClause: true,
};
