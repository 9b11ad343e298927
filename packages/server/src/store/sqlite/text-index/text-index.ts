import { inverseDocumentFrequency, lengthNorm, phraseScore, type FtsStatistics } from './bm25.js';
import { typeNumbers, type BaseSegment } from './build.js';
import type { ChangedRow } from './changes.js';
import { BLOCK, decodeBlock, frequencyIn, type Decoded } from './postings.js';

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

/** A term's postings decoded for a ranking: the first `length` entries are used. */
interface PostingList extends Decoded {
  length: number;
}

/** Postings added since the base segment was built, by term, in ascending document order. */
interface DeltaList {
  docs: number[];
  frequencies: number[];
  lengths: number[];
}

/**
 * Every indexed snapshot's terms, in memory: a base segment built from FTS5's index, documents
 * added since (a delta, in plain arrays), and a mark on each document removed or replaced since.
 * A changed snapshot is a new document; its old one is marked. Ranks exactly as FTS5's bm25
 * with the same weights: the rows holding a term are counted among the live documents, and the
 * row count and average length are FTS5's own (bm25.ts says why they are not the live ones).
 *
 * A ranking decodes each query term's postings once, then walks them together in document
 * order, scoring each document in scope (every match is scored, as FTS5 scores every match).
 */
export class InMemoryIndex {
  private readonly postings;
  private readonly termNumber: Map<string, number>;
  private readonly typeNumber: Map<string, number>;
  private readonly brainNumber: Map<string, number>;
  private readonly baseDocs: number;
  private docs: number;
  private docRowid: Int32Array;
  private docBrain: Int32Array;
  private docType: Uint8Array;
  private dead: Uint8Array;
  private readonly deltaOfRowid = new Map<number, number>();
  private readonly delta = new Map<string, DeltaList>();
  private liveDocs = 0;
  /** FTS5's own N and token total, which bm25 uses (see bm25.ts). */
  private statistics: FtsStatistics;
  /** Room for one decoded block, to look one document up. */
  private readonly block: Decoded = {
    docs: new Int32Array(BLOCK),
    frequencies: new Uint32Array(BLOCK),
    lengths: new Uint32Array(BLOCK),
  };
  /** Each phrase's live postings, decoded for a ranking (reused, grown as needed). */
  private readonly lists: PostingList[] = [];
  /** A ranking's matches in scope, in document order, with their scores. */
  private matchDocs = new Int32Array(1024);
  private matchScores = new Float64Array(1024);

  constructor(base: BaseSegment, types: readonly string[]) {
    this.postings = base.postings;
    this.termNumber = new Map(base.terms.map((term, i) => [term, i]));
    this.typeNumber = typeNumbers(types);
    this.brainNumber = new Map(base.brains.map((brain, i) => [brain, i]));
    this.baseDocs = this.docs = base.docRowid.length;
    const capacity = Math.max(1024, Math.ceil(this.docs * 1.25));
    this.docRowid = resized(base.docRowid, capacity);
    this.docBrain = resized(base.docBrain, capacity);
    this.docType = resized(base.docType, capacity);
    this.dead = new Uint8Array(capacity);
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

  /**
   * The `k` best documents in scope for the phrases (single terms, in query order; a repeated
   * term counts again, as in FTS5), with all tied with the k-th, and the count of all matches.
   */
  rank(phrases: string[], scope: IndexScope, k: number): Ranking {
    const { rows, tokens } = this.statistics;
    if (this.liveDocs === 0 || rows === 0 || scope.type < 0) return { docs: [], scores: [], count: 0 };
    const average = tokens / rows;
    const n = phrases.length;
    const idfs = phrases.map((phrase, i) => inverseDocumentFrequency(rows, this.decode(phrase, i)));
    const count = this.merge(n, idfs, scope, average);
    const { matchDocs, matchScores } = this;
    const floor = kthHighest(matchScores, count, k);
    const docs: number[] = [];
    const found: number[] = [];
    for (let i = 0; i < count; i++) {
      const score = matchScores[i] as number;
      if (score >= floor) {
        docs.push(matchDocs[i] as number);
        found.push(score);
      }
    }
    return { docs, scores: found, count };
  }

  /**
   * Walks the first `n` decoded lists together, in document order (document at a time), and
   * writes each document in scope with its score into matchDocs / matchScores; returns how many.
   * Its phrases' parts are added in phrase order, as FTS5 adds them. Every array is read in
   * sequence: at 1,000,000 snapshots, scoring term at a time into an accumulator the size of the
   * index (random reads over ~20 MB) cost 196 ns a posting, this 34–52 (docs/performance.md).
   */
  private merge(n: number, idfs: number[], scope: IndexScope, average: number): number {
    const { lists, docBrain, docType } = this;
    const everyDocInScope = this.brainNumber.size === 1 && scope.type === 0;
    this.reserveMatches(lists.slice(0, n).reduce((sum, list) => sum + list.length, 0));
    const { matchDocs, matchScores } = this;
    const position = new Int32Array(n);
    let count = 0;
    for (;;) {
      let doc = 0x7fffffff;
      for (let i = 0; i < n; i++) {
        const list = lists[i] as PostingList;
        const at = position[i] as number;
        if (at < list.length && (list.docs[at] as number) < doc) doc = list.docs[at] as number;
      }
      if (doc === 0x7fffffff) return count;
      const inScope =
        everyDocInScope || (docBrain[doc] === scope.brain && (scope.type === 0 || docType[doc] === scope.type));
      let norm = -1;
      let score = 0;
      for (let i = 0; i < n; i++) {
        const list = lists[i] as PostingList;
        const at = position[i] as number;
        if (at < list.length && list.docs[at] === doc) {
          if (norm < 0) norm = lengthNorm(list.lengths[at] as number, average);
          if (inScope) score += phraseScore(idfs[i] as number, list.frequencies[at] as number, norm);
          position[i] = at + 1;
        }
      }
      if (inScope) {
        matchDocs[count] = doc;
        matchScores[count++] = score;
      }
    }
  }

  /**
   * Decodes `term`'s live postings (base, then delta: ascending documents) into lists[slot];
   * returns how many there are: the term's document frequency, over every brain, as FTS5's.
   */
  private decode(term: string, slot: number): number {
    const t = this.termNumber.get(term);
    const delta = this.delta.get(term);
    const total = (t === undefined ? 0 : (this.postings.termCount[t] as number)) + (delta?.docs.length ?? 0);
    const list = this.listFor(slot, total);
    let length = 0;
    if (t !== undefined) {
      const end = this.postings.termBlock[t + 1] as number;
      for (let b = this.postings.termBlock[t] as number; b < end; b++) {
        length += decodeBlock(this.postings, t, b, list, length);
      }
    }
    for (let i = 0; delta !== undefined && i < delta.docs.length; i++) {
      list.docs[length] = delta.docs[i] as number;
      list.lengths[length] = delta.lengths[i] as number;
      list.frequencies[length++] = delta.frequencies[i] as number;
    }
    // Removed documents are dropped (none are, usually: then nothing is read).
    if (this.liveDocs !== this.docs) {
      const { dead } = this;
      let kept = 0;
      for (let i = 0; i < length; i++) {
        const doc = list.docs[i] as number;
        if (dead[doc] !== 0) continue;
        list.docs[kept] = doc;
        list.lengths[kept] = list.lengths[i] as number;
        list.frequencies[kept++] = list.frequencies[i] as number;
      }
      length = kept;
    }
    list.length = length;
    return length;
  }

  /** lists[slot], with room for `size` postings (and a block more, for decodeBlock). */
  private listFor(slot: number, size: number): PostingList {
    let list = this.lists[slot];
    if (list === undefined || list.docs.length < size + BLOCK) {
      const room = Math.max(1024, (size + BLOCK) * 2);
      list = {
        docs: new Int32Array(room),
        frequencies: new Uint32Array(room),
        lengths: new Uint32Array(room),
        length: 0,
      };
      this.lists[slot] = list;
    }
    return list;
  }

  private reserveMatches(size: number): void {
    if (this.matchDocs.length >= size) return;
    this.matchDocs = new Int32Array(size * 2);
    this.matchScores = new Float64Array(size * 2);
  }

  /** Whether `doc` is live, in scope, and holds any of the terms. */
  matches(phrases: string[], scope: IndexScope, doc: number): boolean {
    if (doc < 0 || this.dead[doc] !== 0 || this.docBrain[doc] !== scope.brain) return false;
    if (scope.type !== 0 && this.docType[doc] !== scope.type) return false;
    return phrases.some((phrase) => {
      const t = this.termNumber.get(phrase);
      if (t !== undefined && frequencyIn(this.postings, t, doc, this.block) > 0) return true;
      const list = this.delta.get(phrase);
      return list !== undefined && binarySearch(list.docs, list.docs.length, doc) >= 0;
    });
  }

  private remove(rowid: number): void {
    const doc = this.docOf(rowid);
    if (doc < 0) return;
    this.dead[doc] = 1;
    this.deltaOfRowid.delete(rowid);
    this.liveDocs--;
  }

  private add(row: ChangedRow & { gone: false }): void {
    if (this.docs === this.docRowid.length) this.grow();
    const doc = this.docs++;
    let brain = this.brainNumber.get(row.brain);
    if (brain === undefined) this.brainNumber.set(row.brain, (brain = this.brainNumber.size));
    this.docRowid[doc] = row.rowid;
    this.docBrain[doc] = brain;
    this.docType[doc] = this.typeNumber.get(row.type) ?? 0;
    this.deltaOfRowid.set(row.rowid, doc);
    for (const [term, doubled] of row.terms) {
      let list = this.delta.get(term);
      if (list === undefined) this.delta.set(term, (list = { docs: [], frequencies: [], lengths: [] }));
      list.docs.push(doc);
      list.frequencies.push(doubled);
      list.lengths.push(row.length);
    }
    this.liveDocs++;
  }

  private grow(): void {
    const capacity = this.docRowid.length * 2;
    this.docRowid = resized(this.docRowid, capacity);
    this.docBrain = resized(this.docBrain, capacity);
    this.docType = resized(this.docType, capacity);
    this.dead = resized(this.dead, capacity);
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

/** The k-th highest of the first `count` scores (-Infinity when there are at most k). */
function kthHighest(scores: Float64Array, count: number, k: number): number {
  if (count <= k) return -Infinity;
  // The best k so far, highest first: most scores do not beat the k-th and cost one comparison.
  const best = new Float64Array(k).fill(-Infinity);
  for (let i = 0; i < count; i++) {
    const score = scores[i] as number;
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
