import type { MemoryType } from '../../../model.js';
import type { IndexedMemoryText } from './feed-types.js';
import { stem } from '../../../porter2.js';
import { bagOf, NO_WORDS, type Bag } from '../../../memory-words.js';
import { TYPE_NUMBER, type FlatWords } from './flat.js';
import type { KeptTurns, TurnsKept } from './turns-kept.js';

/** Dead documents (changed or deleted) past this share of a brain's: it is built again. */
const MAX_DEAD_SHARE = 0.5;

/** A stem's postings: documents in ascending order (appended), the stem's weighted count in each. */
interface Postings {
  docs: Int32Array;
  tfs: Uint16Array;
  n: number;
  /** Live documents holding it: its document frequency. */
  live: number;
  /** Its place in termList (and termNames): the base's documents name their stems by it. */
  id: number;
}

/** The best candidates of a query, by the store's key, best first. */
export interface Candidates {
  keys: number[];
  scores: number[];
}

/**
 * One brain's index. Documents are numbered in the order they were added: those of the flat
 * base first (their stems in its arrays), then those put since.
 */
export class BrainWords {
  /** The neighbours read lately around this brain's memories (set when the index is kept). */
  turns: TurnsKept<BrainWords> | undefined;
  private readonly termOf = new Map<string, Postings>();
  private readonly termList: Postings[] = [];
  private readonly termNames: string[] = [];
  /** By document: its key, weighted length, type number and whether it is dead; `docCount` in use. */
  private docKey: Float64Array;
  private docLength: Float64Array;
  private docType: Uint8Array;
  private deadMarks: Uint8Array;
  private docCount: number;
  private readonly base: FlatWords | undefined;
  private readonly baseDocs: number;
  /** The stems of each document put since the base (and their counts), by document number less baseDocs. */
  private readonly addedTerms: ({ postings: Postings[]; bag: Bag } | undefined)[] = [];
  /** The documents put since the base, by key (the base's are found by their ascending keys). */
  private readonly docOfKey = new Map<number, number>();
  private liveDocs = 0;
  private deadDocs = 0;
  private liveLength = 0;
  private scratch = new Float64Array(0);

  constructor(
    readonly lo: number,
    readonly hi: number,
    base?: FlatWords,
  ) {
    this.base = base;
    this.baseDocs = base?.docKey.length ?? 0;
    this.docCount = this.baseDocs;
    const room = Math.max(64, Math.ceil(this.baseDocs * 1.25));
    this.docKey = new Float64Array(room);
    this.docLength = new Float64Array(room);
    this.docType = new Uint8Array(room);
    this.deadMarks = new Uint8Array(room);
    if (base) {
      this.docKey.set(base.docKey);
      this.docLength.set(base.docLength);
      this.docType.set(base.docType);
      base.terms.forEach((term, i) => {
        const from = base.termStart[i] as number;
        const to = base.termStart[i + 1] as number;
        // Views of exactly their length: the first append copies them out of the shared buffer.
        const p = {
          docs: base.postDocs.subarray(from, to),
          tfs: base.postTfs.subarray(from, to),
          n: to - from,
          live: to - from,
          id: i,
        };
        this.termOf.set(term, p);
        this.termList.push(p);
        this.termNames.push(term);
      });
      this.liveDocs = this.baseDocs;
      for (let doc = 0; doc < this.baseDocs; doc++) this.liveLength += this.docLength[doc] as number;
    }
  }

  get size(): number {
    return this.liveDocs;
  }

  get docs(): number {
    return this.docCount;
  }

  get wornOut(): boolean {
    return this.deadDocs > 1_000 && this.deadDocs > MAX_DEAD_SHARE * this.docCount;
  }

  /** Adds (or replaces) a memory's text. */
  put(text: IndexedMemoryText): void {
    this.remove(text.key);
    const bag = bagOf(text, false);
    const doc = this.docCount;
    if (doc === this.docKey.length) this.grow();
    const terms: Postings[] = [];
    for (const [term, tf] of bag.counts) {
      let p = this.termOf.get(term);
      if (!p) {
        p = { docs: new Int32Array(4), tfs: new Uint16Array(4), n: 0, live: 0, id: this.termList.length };
        this.termOf.set(term, p);
        this.termList.push(p);
        this.termNames.push(term);
      }
      if (p.n === p.docs.length) {
        const docs = new Int32Array(Math.max(4, p.n * 2));
        docs.set(p.docs.subarray(0, p.n));
        const tfs = new Uint16Array(docs.length);
        tfs.set(p.tfs.subarray(0, p.n));
        p.docs = docs;
        p.tfs = tfs;
      }
      p.docs[p.n] = doc;
      p.tfs[p.n] = tf;
      p.n++;
      p.live++;
      terms.push(p);
    }
    this.docKey[doc] = text.key;
    this.docLength[doc] = bag.length;
    this.docType[doc] = TYPE_NUMBER.get(text.memory_type) ?? 0;
    this.docCount++;
    this.addedTerms.push({ postings: terms, bag: { counts: bag.counts, words: NO_WORDS, length: bag.length } });
    this.docOfKey.set(text.key, doc);
    this.liveDocs++;
    this.liveLength += bag.length;
  }

  private grow(): void {
    const room = this.docKey.length * 2;
    const docKey = new Float64Array(room);
    docKey.set(this.docKey);
    const docLength = new Float64Array(room);
    docLength.set(this.docLength);
    const docType = new Uint8Array(room);
    docType.set(this.docType);
    const deadMarks = new Uint8Array(room);
    deadMarks.set(this.deadMarks);
    this.docKey = docKey;
    this.docLength = docLength;
    this.docType = docType;
    this.deadMarks = deadMarks;
  }

  /** The live document of a key. */
  private docOf(key: number): number | undefined {
    const added = this.docOfKey.get(key);
    if (added !== undefined) return added;
    let lo = 0;
    let hi = this.baseDocs - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.docKey[mid] as number;
      if (at === key) return this.deadMarks[mid] === 1 ? undefined : mid;
      if (at < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Forgets a memory (deleted, or about to be put again). */
  remove(key: number): void {
    const doc = this.docOf(key);
    if (doc === undefined) return;
    this.docOfKey.delete(key);
    this.deadMarks[doc] = 1;
    if (doc < this.baseDocs) {
      const base = this.base as FlatWords;
      for (let i = base.docTermStart[doc] as number; i < (base.docTermStart[doc + 1] as number); i++) {
        (this.termList[base.docTermIds[i] as number] as Postings).live--;
      }
    } else {
      for (const p of this.addedTerms[doc - this.baseDocs]?.postings ?? []) p.live--;
      this.addedTerms[doc - this.baseDocs] = undefined;
    }
    this.liveDocs--;
    this.deadDocs++;
    this.liveLength -= this.docLength[doc] as number;
  }

  /**
   * The memory's bag (ranking.ts) as indexed: its stems and their weighted counts, without the
   * words they came from (`words` is empty: ranking counts stems through dfOfStems).
   */
  bagOfKey(key: number): Bag | undefined {
    const doc = this.docOf(key);
    if (doc === undefined) return undefined;
    if (doc >= this.baseDocs) return this.addedTerms[doc - this.baseDocs]?.bag;
    const base = this.base as FlatWords;
    const from = base.docTermStart[doc] as number;
    const to = base.docTermStart[doc + 1] as number;
    return {
      counts: new BaseCounts(this.termOf, this.termNames, base, from, to),
      words: NO_WORDS,
      length: this.docLength[doc] as number,
    };
  }

  /** The turns read around a memory since the brain last changed (and their keys). */
  keptTurns(id: string): KeptTurns | undefined {
    return this.turns?.get(this, id);
  }

  keepTurns(id: string, kept: KeptTurns): void {
    this.turns?.set(this, id, kept);
  }

  /** The number of live memories holding each stem. */
  dfOfStems(stems: readonly string[]): number[] {
    return stems.map((s) => this.termOf.get(s)?.live ?? 0);
  }

  /** The number of live memories holding each word (stemmed here). */
  df(words: readonly string[]): number[] {
    return words.map((w) => this.termOf.get(stem(w))?.live ?? 0);
  }

  /**
   * The `k` best live memories (of the type, when given) by BM25 over the stems with these
   * weights, the brain's mean length; ties: the later key first (as the store's own ranking).
   */
  best(
    weights: ReadonlyMap<string, number>,
    type: MemoryType | undefined,
    k: number,
    { k1, b }: { k1: number; b: number },
  ): Candidates {
    const mean = Math.max(1, this.liveLength / Math.max(1, this.liveDocs));
    if (this.scratch.length < this.docCount) this.scratch = new Float64Array(this.docKey.length);
    const score = this.scratch;
    const touched: number[] = [];
    const wanted = type === undefined ? 0 : (TYPE_NUMBER.get(type) ?? -1);
    const { deadMarks: dead, docLength, docType } = this;
    for (const [term, weight] of weights) {
      const p = this.termOf.get(term);
      if (!p || weight <= 0) continue;
      for (let i = 0; i < p.n; i++) {
        const doc = p.docs[i] as number;
        if (dead[doc] === 1 || (wanted !== 0 && docType[doc] !== wanted)) continue;
        const tf = p.tfs[i] as number;
        const s = (weight * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * (docLength[doc] as number)) / mean));
        if (score[doc] === 0) touched.push(doc);
        score[doc] = (score[doc] as number) + s;
      }
    }
    const top = selectBest(touched, score, this.docKey, k);
    const out = { keys: top.map((d) => this.docKey[d] as number), scores: top.map((d) => score[d] as number) };
    for (const doc of touched) score[doc] = 0;
    return out;
  }
}

/** The k documents of `docs` with the highest score, ties by the higher key; best first. */
function selectBest(docs: number[], score: Float64Array, key: Float64Array, k: number): number[] {
  const before = (a: number, b: number) =>
    (score[a] as number) > (score[b] as number) || (score[a] === score[b] && (key[a] as number) > (key[b] as number));
  if (docs.length <= k) return docs.sort((a, b) => (before(a, b) ? -1 : 1));
  // A kept list of the best k, sorted; most documents fall below its last and cost one comparison.
  const best: number[] = docs.slice(0, k).sort((a, b) => (before(a, b) ? -1 : 1));
  for (let i = k; i < docs.length; i++) {
    const doc = docs[i] as number;
    if (!before(doc, best[k - 1] as number)) continue;
    let at = k - 1;
    while (at > 0 && before(doc, best[at - 1] as number)) at--;
    best.splice(at, 0, doc);
    best.pop();
  }
  return best;
}

/**
 * A base document's stems and weighted counts, read in place from the flat arrays (its entries
 * docTermIds/docTermTfs[from, to), in the order the document holds them): a search ranks ~60
 * memories' bags, and a Map made for each cost more than the few look-ups ranking makes in it.
 */
class BaseCounts implements ReadonlyMap<string, number> {
  constructor(
    private readonly termOf: ReadonlyMap<string, Postings>,
    private readonly termNames: readonly string[],
    private readonly base: FlatWords,
    private readonly from: number,
    private readonly to: number,
  ) {}

  get size(): number {
    return this.to - this.from;
  }

  get(term: string): number | undefined {
    const p = this.termOf.get(term);
    if (p === undefined) return undefined;
    const { docTermIds, docTermTfs } = this.base;
    for (let i = this.from; i < this.to; i++) if (docTermIds[i] === p.id) return docTermTfs[i] as number;
    return undefined;
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }

  *entries(): MapIterator<[string, number]> {
    const { docTermIds, docTermTfs } = this.base;
    for (let i = this.from; i < this.to; i++) {
      yield [this.termNames[docTermIds[i] as number] as string, docTermTfs[i] as number];
    }
  }

  *keys(): MapIterator<string> {
    for (const [term] of this.entries()) yield term;
  }

  *values(): MapIterator<number> {
    for (const [, tf] of this.entries()) yield tf;
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  forEach(each: (value: number, key: string, map: ReadonlyMap<string, number>) => void): void {
    for (const [term, tf] of this.entries()) each(tf, term, this);
  }
}
