import { inverseDocumentFrequency, lengthNorm, phraseScore, type FtsStatistics } from './bm25.js';
import { typeNumbers, type BaseSegment } from './build.js';
import type { ChangedRow } from './changes.js';
import { BLOCK, decodeBlock, frequencyIn } from './postings.js';

/** Where a ranking looks: a brain's number, and a type's (0: every type). */
export interface IndexScope {
  brain: number;
  type: number;
}

/** The best documents of a ranking, with every one tied with the last, and how many matched. */
export interface Ranking {
  docs: number[];
  scores: number[];
  count: number;
}

/** Postings added since the base segment was built, by term, in ascending document order. */
interface DeltaList {
  docs: number[];
  frequencies: number[];
}

/**
 * Every indexed snapshot's terms, in memory: a base segment built from FTS5's index, documents
 * added since (a delta, in plain arrays), and a mark on each document removed or replaced since.
 * A changed snapshot is a new document; its old one is marked. Ranks exactly as FTS5's bm25
 * with the same weights: the statistics (rows, average length, rows holding a term) are those of
 * the live documents, as FTS5's are once deletes are applied.
 *
 * Queries score term at a time into one accumulator the size of the index: every posting of a
 * query's terms is read once, and no document is visited twice per term.
 */
export class TextIndex {
  private readonly postings;
  private readonly termNumber: Map<string, number>;
  private readonly typeNumber: Map<string, number>;
  private readonly brainNumber: Map<string, number>;
  private readonly baseDocs: number;
  private docs: number;
  private docRowid: Int32Array;
  private docLength: Uint32Array;
  private docBrain: Int32Array;
  private docType: Uint8Array;
  private dead: Uint8Array;
  private readonly deltaOfRowid = new Map<number, number>();
  private readonly delta = new Map<string, DeltaList>();
  private liveDocs = 0;
  /** FTS5's own N and token total, which bm25 uses (see bm25.ts). */
  private statistics: FtsStatistics;
  private deadBaseDocs = 0;
  /** Bumped at every removal: live counts of terms are kept per epoch. */
  private epoch = 0;
  private readonly liveCounts = new Map<string, { epoch: number; count: number }>();
  private scores: Float64Array;
  private touched: Int32Array;
  private readonly blockDocs = new Int32Array(BLOCK);
  private readonly blockFrequencies = new Uint32Array(BLOCK);

  constructor(base: BaseSegment, types: readonly string[]) {
    this.postings = base.postings;
    this.termNumber = new Map(base.terms.map((term, i) => [term, i]));
    this.typeNumber = typeNumbers(types);
    this.brainNumber = new Map(base.brains.map((brain, i) => [brain, i]));
    this.baseDocs = this.docs = base.docRowid.length;
    const capacity = Math.max(1024, Math.ceil(this.docs * 1.25));
    this.docRowid = resized(base.docRowid, capacity);
    this.docLength = resized(base.docLength, capacity);
    this.docBrain = resized(base.docBrain, capacity);
    this.docType = resized(base.docType, capacity);
    this.dead = new Uint8Array(capacity);
    this.scores = new Float64Array(capacity);
    this.touched = new Int32Array(capacity);
    this.liveDocs = this.docs;
    this.statistics = base.statistics;
  }

  /** FTS5's statistics after the changes just applied. */
  setStatistics(statistics: FtsStatistics): void {
    this.statistics = statistics;
  }

  /** Documents added since the base segment, and the share of all documents marked removed. */
  get growth(): { added: number; baseDocs: number; deadShare: number } {
    const deadShare = this.docs === 0 ? 0 : (this.docs - this.liveDocs) / this.docs;
    return { added: this.docs - this.baseDocs, baseDocs: this.baseDocs, deadShare };
  }

  /** How many live documents the index holds. */
  get documents(): number {
    return this.liveDocs;
  }

  /** The scope's numbers, or undefined when no document can be in it (a brain with none). */
  scopeOf(brainId: string, type: string | undefined): IndexScope | undefined {
    const brain = this.brainNumber.get(brainId);
    if (brain === undefined) return undefined;
    return { brain, type: type === undefined ? 0 : (this.typeNumber.get(type) ?? -1) };
  }

  /** The live document of a row, or -1. */
  docOf(rowid: number): number {
    const added = this.deltaOfRowid.get(rowid);
    if (added !== undefined) return added;
    const doc = binarySearch(this.docRowid, this.baseDocs, rowid);
    return doc >= 0 && this.dead[doc] === 0 ? doc : -1;
  }

  rowidOf(doc: number): number {
    return this.docRowid[doc] as number;
  }

  /** Applies a changed row: its old document (if any) is removed, and its text added as new. */
  apply(row: ChangedRow): void {
    this.remove(row.rowid);
    if (!row.gone) this.add(row);
  }

  /** How many live documents hold `term`. */
  documentFrequency(term: string): number {
    const t = this.termNumber.get(term);
    const list = this.delta.get(term);
    if (this.epoch === 0 || (this.deadBaseDocs === 0 && list === undefined)) {
      return (t === undefined ? 0 : (this.postings.termCount[t] as number)) + (list?.docs.length ?? 0);
    }
    const kept = this.liveCounts.get(term);
    if (kept?.epoch === this.epoch) return kept.count;
    let count = 0;
    this.forEachPosting(term, (doc) => {
      if (this.dead[doc] === 0) count++;
    });
    if (this.liveCounts.size > 100_000) this.liveCounts.clear();
    this.liveCounts.set(term, { epoch: this.epoch, count });
    return count;
  }

  /**
   * The `k` best documents in scope for the phrases (single terms, in query order; a repeated
   * term counts again, as in FTS5), with all tied with the k-th, and the count of all matches.
   */
  rank(phrases: string[], scope: IndexScope, k: number): Ranking {
    const { rows, tokens } = this.statistics;
    if (this.liveDocs === 0 || rows === 0 || scope.type < 0) return { docs: [], scores: [], count: 0 };
    const average = tokens / rows;
    const { scores, touched, dead, docBrain, docType, docLength } = this;
    let count = 0;
    for (const phrase of phrases) {
      const idf = inverseDocumentFrequency(rows, this.documentFrequency(phrase));
      this.forEachPosting(phrase, (doc, doubled) => {
        if (dead[doc] !== 0 || docBrain[doc] !== scope.brain || (scope.type !== 0 && docType[doc] !== scope.type))
          return;
        if (scores[doc] === 0) touched[count++] = doc;
        scores[doc] =
          (scores[doc] as number) + phraseScore(idf, doubled, lengthNorm(docLength[doc] as number, average));
      });
    }
    const floor = kthHighest(scores, touched, count, k);
    const docs: number[] = [];
    const found: number[] = [];
    for (let i = 0; i < count; i++) {
      const doc = touched[i] as number;
      const score = scores[doc] as number;
      if (score >= floor) {
        docs.push(doc);
        found.push(score);
      }
      scores[doc] = 0;
    }
    return { docs, scores: found, count };
  }

  /** Whether `doc` is live, in scope, and holds any of the terms. */
  matches(phrases: string[], scope: IndexScope, doc: number): boolean {
    if (doc < 0 || this.dead[doc] !== 0 || this.docBrain[doc] !== scope.brain) return false;
    if (scope.type !== 0 && this.docType[doc] !== scope.type) return false;
    return phrases.some((phrase) => {
      const t = this.termNumber.get(phrase);
      if (t !== undefined && frequencyIn(this.postings, t, doc, this.blockDocs, this.blockFrequencies) > 0) return true;
      const list = this.delta.get(phrase);
      return list !== undefined && binarySearch(list.docs, list.docs.length, doc) >= 0;
    });
  }

  /** Calls `visit` with each posting of `term` (base, then delta: ascending documents). */
  private forEachPosting(term: string, visit: (doc: number, doubled: number) => void): void {
    const t = this.termNumber.get(term);
    if (t !== undefined) {
      const { blockDocs, blockFrequencies } = this;
      const end = this.postings.termBlock[t + 1] as number;
      for (let b = this.postings.termBlock[t] as number; b < end; b++) {
        const n = decodeBlock(this.postings, t, b, blockDocs, blockFrequencies);
        for (let i = 0; i < n; i++) visit(blockDocs[i] as number, blockFrequencies[i] as number);
      }
    }
    const list = this.delta.get(term);
    if (list !== undefined) {
      for (let i = 0; i < list.docs.length; i++) visit(list.docs[i] as number, list.frequencies[i] as number);
    }
  }

  private remove(rowid: number): void {
    const doc = this.docOf(rowid);
    if (doc < 0) return;
    this.dead[doc] = 1;
    this.deltaOfRowid.delete(rowid);
    if (doc < this.baseDocs) this.deadBaseDocs++;
    this.liveDocs--;
    this.epoch++;
  }

  private add(row: ChangedRow & { gone: false }): void {
    if (this.docs === this.docRowid.length) this.grow();
    const doc = this.docs++;
    let brain = this.brainNumber.get(row.brain);
    if (brain === undefined) this.brainNumber.set(row.brain, (brain = this.brainNumber.size));
    this.docRowid[doc] = row.rowid;
    this.docLength[doc] = row.length;
    this.docBrain[doc] = brain;
    this.docType[doc] = this.typeNumber.get(row.type) ?? 0;
    this.deltaOfRowid.set(row.rowid, doc);
    for (const [term, doubled] of row.terms) {
      let list = this.delta.get(term);
      if (list === undefined) this.delta.set(term, (list = { docs: [], frequencies: [] }));
      list.docs.push(doc);
      list.frequencies.push(doubled);
      this.liveCounts.delete(term);
    }
    this.liveDocs++;
  }

  private grow(): void {
    const capacity = this.docRowid.length * 2;
    this.docRowid = resized(this.docRowid, capacity);
    this.docLength = resized(this.docLength, capacity);
    this.docBrain = resized(this.docBrain, capacity);
    this.docType = resized(this.docType, capacity);
    this.dead = resized(this.dead, capacity);
    this.scores = new Float64Array(capacity);
    this.touched = new Int32Array(capacity);
  }
}

type NumberArray = Int32Array | Uint32Array | Uint8Array;
function resized<T extends NumberArray>(array: T, length: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(length);
  bigger.set(array.subarray(0, Math.min(array.length, length)) as never);
  return bigger;
}

/** The index of `value` in the first `length` (ascending) entries, or -1. */
function binarySearch(sorted: ArrayLike<number>, length: number, value: number): number {
  let low = 0;
  let high = length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = sorted[mid] as number;
    if (at < value) low = mid + 1;
    else if (at > value) high = mid - 1;
    else return mid;
  }
  return -1;
}

/** The k-th highest score among the touched documents (-Infinity when there are at most k). */
function kthHighest(scores: Float64Array, touched: Int32Array, count: number, k: number): number {
  if (count <= k) return -Infinity;
  // The best k so far, highest first: most scores do not beat the k-th and cost one comparison.
  const best = new Float64Array(k).fill(-Infinity);
  for (let i = 0; i < count; i++) {
    const score = scores[touched[i] as number] as number;
    if (score <= (best[k - 1] as number)) continue;
    let j = k - 1;
    while (j > 0 && (best[j - 1] as number) < score) {
      best[j] = best[j - 1] as number;
      j--;
    }
    best[j] = score;
  }
  return best[k - 1] as number;
}
