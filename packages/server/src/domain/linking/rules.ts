/**
 * The detection rules of automatic edges without an LLM (design §9), published in
 * docs/auto-edges.md. Candidates are the brain's best text matches for a snapshot's own words;
 * each gets a score in [0, 1]:
 * - text: the cosine of the two snapshots' sets of distinctive words (name, one_liner, tags,
 *   core; stop words left out): shared / √(|A|·|B|), 1 for the same words. BM25 only finds the
 *   candidates: its weights depend on the whole corpus, so they make a poor pair score; with
 *   vectors, the 25 nearest in meaning (cosine ≥ meaningMin) are candidates too, and the text
 *   part is the larger of the word cosine and the vectors' cosine;
 * - tags: plus `tagBonus` × the Jaccard overlap of the two tag sets;
 * - mention: when one snapshot's text names the other (its whole name, as words), the score is
 *   at least `mentionFloor` + (1 − mentionFloor) × text, and the edge is `elaborates`: the named
 *   snapshot adds detail to the one that names it. Otherwise the edge is `related_to`;
 * - a shared name: when both name the same rare thing (named-things.ts: at most
 *   `sharedNameMaxNamedBy` snapshots of the brain name it), the score is at least as a mention's.
 * The edge's strength is the score, rounded to two decimals.
 */
export const LINK_RULES = {
  /** Text candidates read for one snapshot. */
  candidates: 25,
  /** The snapshot's words its candidates are searched with: the rarest in the brain. */
  queryWords: 12,
  /** A word in this many of the brain's snapshots is too common to search candidates with. */
  commonAt: 1000,
  /**
   * When every word is that common (only in a large brain), they are counted up to this many
   * snapshots, and the rarest `commonQueryWords` searched with: at 1,000,000 snapshots of the
   * search benchmark's made-up text, 12 words counted to 1,000 alone took 2.4 s a suggestion (p50).
   */
  commonCountedTo: 20_000,
  commonQueryWords: 3,
  /** Automatic linking makes the edges scoring at least this … */
  autoMinScore: 0.35,
  /** … and at most this many per snapshot, best first. */
  autoMaxPerSnapshot: 5,
  /** Suggestions show candidates from this score up. */
  suggestMinScore: 0.15,
  tagBonus: 0.3,
  /** With vectors: the cosine from which a snapshot is a candidate by meaning. */
  meaningMin: 0.5,
  mentionFloor: 0.6,
  /**
   * A thing two snapshots both name (a person, a place, a work: named-things.ts) links them when
   * at most this many snapshots of the brain, the two included, name it: a rare name is one
   * subject, a common one ("United States") is many. Measured on the search benchmark's
   * automatic-edge brains, MuSiQue's graph lift went from 1.044 to 1.067 on SQLite (docs/ranking.md).
   */
  sharedNameMaxNamedBy: 3,
  /** Of a snapshot's named things, the rarest this many (by their rarest word) are looked up … */
  sharedNamesSearched: 6,
  /**
   * … and none whose every word is in this many snapshots or more: finding a phrase reads where
   * its words stand in every text that holds them, and on the search benchmark's paragraphs
   * looking up names of common words (to 1,000) made a suggestion 3 ms slower at the median.
   */
  sharedNameCommonAt: 50,
  /** A name shorter than this is too common a word to count as a mention. */
  mentionMinLength: 4,
  /**
   * Among the snapshots of one run (among-new.ts): a word held by more of them than this finds
   * no candidates, so that a long document's common words never make every pair a candidate.
   */
  runCommonAt: 50,
  /**
   * Of the snapshots one run writes (a crystallize, an ingestion), the first this many are
   * linked to the brain's existing snapshots by the run itself; the rest are linked among
   * themselves by the run and to the brain by the background linker, shortly after the write.
   */
  runMaxLinked: 200,
  /** How long after a run the background linker takes up the snapshots beyond runMaxLinked. */
  laterLinkDelayMs: 30_000,
} as const;
