/**
 * Most candidates one look-up considers, and most entries of the word lists it reads. Reached
 * only by a set whose rarest words are those of thousands of held sets (a text made to be slow,
 * not one anybody writes); past either, a look-up answers from what it has read, the rarest
 * words first. They bound a look-up's work whatever the input.
 */
export const CANDIDATES_CONSIDERED = 1000;
export const ENTRIES_READ = 20_000;

/** Below any difference between two cosines that matter: bounds are rounded the safe way by it. */
const EPSILON = 1e-9;

/**
 * Word sets, found again by a set whose word cosine with them (shared / √(|A|·|B|), as
 * linking/resemblance.ts's wordCosine) reaches `threshold`, without comparing it with every set
 * held: all-pairs similarity search with prefix and positional filtering (Bayardo, Ma, Srikant,
 * "Scaling up all pairs similarity search", WWW 2007; Xiao et al., "Efficient similarity joins
 * for near duplicate detection", WWW 2008).
 *
 * Words are ordered rarest first, by their counts in every set the index will see. Two sets
 * whose cosine reaches t share at least ⌈t·√(|A|·|B|)⌉ ≥ ⌈t²·|A|⌉ words, so the first
 * |A| − ⌈t²·|A|⌉ + 1 words of each (its prefix) share one: only prefixes are indexed and looked
 * up, and they hold the rare words, whose lists are short. A candidate is dropped early when its
 * size, or the words left after the position of a shared one, cannot make the overlap needed.
 * The answers are exactly those of comparing with every set (within CANDIDATES_CONSIDERED and
 * ENTRIES_READ).
 */
export class SimilarSets {
  private readonly rank = new Map<string, number>();
  private readonly minShare: number;
  /** Each held set as its words' ranks, ascending. */
  private readonly sets: Int32Array[] = [];
  /** Word rank → (held set number, the word's position in that set) pairs, by number ascending. */
  private readonly postings = new Map<number, number[]>();
  /** A look-up's count of shared words per held set (-1: cannot reach t), left all 0 after it. */
  private shared = new Int32Array(64);

  /** `everySet`: all the sets that will be held or looked up, for the words' counts. */
  constructor(
    everySet: Iterable<ReadonlySet<string>>,
    private readonly threshold: number,
  ) {
    const counts = new Map<string, number>();
    for (const set of everySet) for (const word of set) counts.set(word, (counts.get(word) ?? 0) + 1);
    const ordered = [...counts].sort(([a, m], [b, n]) => m - n || (a < b ? -1 : a > b ? 1 : 0));
    ordered.forEach(([word], i) => this.rank.set(word, i));
    this.minShare = threshold * threshold - EPSILON;
  }

  /** Holds `set` as the next number (0, 1, …). */
  add(set: ReadonlySet<string>): number {
    const number = this.sets.length;
    const ranks = this.ranksOf(set);
    this.sets.push(ranks);
    if (this.sets.length > this.shared.length) {
      const larger = new Int32Array(this.shared.length * 2);
      larger.set(this.shared);
      this.shared = larger;
    }
    for (let position = 0; position < this.prefixLength(ranks.length); position++) {
      const word = ranks[position] as number;
      const list = this.postings.get(word);
      if (list) list.push(number, position);
      else this.postings.set(word, [number, position]);
    }
    return number;
  }

  /** The lowest number of a held set whose word cosine with `set` reaches the threshold, or -1. */
  firstSimilar(set: ReadonlySet<string>): number {
    const probe = this.ranksOf(set);
    const size = probe.length;
    const t = this.threshold;
    // Held set number → the words it shares with the probe so far, or -1 once it cannot reach t.
    const shared = this.shared;
    const touched: number[] = [];
    let read = 0;
    gather: for (let i = 0; i < this.prefixLength(size); i++) {
      const list = this.postings.get(probe[i] as number) ?? [];
      for (let k = 0; k < list.length; k += 2) {
        if (++read > ENTRIES_READ) break gather;
        const number = list[k] as number;
        const sofar = shared[number] as number;
        if (sofar === -1) continue;
        if (sofar === 0) {
          if (touched.length >= CANDIDATES_CONSIDERED) break gather;
          touched.push(number);
        }
        const other = (this.sets[number] as Int32Array).length;
        // Sizes whose cosine cannot reach t whatever they share: t²·|A| ≤ |B| ≤ |A| / t².
        const needed = Math.ceil(t * Math.sqrt(size * other) - EPSILON);
        const count = sofar + 1;
        const left = Math.min(size - i - 1, other - (list[k + 1] as number) - 1);
        const hopeless = other < this.minShare * size || other * this.minShare > size || count + left < needed;
        shared[number] = hopeless ? -1 : count;
      }
    }
    const candidates = touched.filter((number) => (shared[number] as number) > 0).sort((a, b) => a - b);
    for (const number of touched) shared[number] = 0;
    for (const number of candidates) {
      const other = this.sets[number] as Int32Array;
      if (overlap(other, probe) / Math.sqrt(other.length * size) >= t) return number;
    }
    return -1;
  }

  /** How many of a set's rarest words a set it resembles must share one of. */
  private prefixLength(size: number): number {
    return size === 0 ? 0 : size - Math.ceil(this.minShare * size) + 1;
  }

  /** The set's words as ranks, ascending; a word not counted at construction is given a rank below all. */
  private ranksOf(set: ReadonlySet<string>): Int32Array {
    const ranks = new Int32Array(set.size);
    let i = 0;
    for (const word of set) {
      let rank = this.rank.get(word);
      if (rank === undefined) this.rank.set(word, (rank = -1 - this.rank.size));
      ranks[i++] = rank;
    }
    return ranks.sort();
  }
}

/** How many values two ascending arrays of distinct values share. */
function overlap(a: Int32Array, b: Int32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared;
}
