import { Worker } from 'node:worker_threads';
import { MEMORY_TYPES, type Memory, type MemoryType } from '../../model.js';
import type { IndexedMemoryText, MemoryTextFeed } from '../../store/memory-store.js';
import { bagOf, forEachStem, idfOf, MEMORY_RANKING, stem, type Bag } from './ranking.js';

const NO_WORDS: ReadonlyMap<string, string> = new Map();

/**
 * The words of a brain's memories, in this process's memory: for each stem (ranking.ts's words),
 * the memories that hold it with its weighted count, and each memory's weighted length. Memory
 * search reads its candidates (the best by the service's own BM25 over every match) and every
 * word's exact document frequency here, instead of FTS5's bm25 over every match and a count per
 * word. Kept in step with every process's writes through the store's log of changed keys
 * (MemoryTextFeed, migration 14 on SQLite): each search applies the changes since the last.
 *
 * Bounds: a brain of up to SYNC_BUILD memories is indexed on the search that first needs it; a
 * larger one by a worker thread with its own connection (in slices of SLICE memories between
 * other work for a database in memory), searches taking the store's path meanwhile; at most
 * MAX_DOCS memories are indexed across brains (the brains used least lately are dropped; about
 * 400 bytes a memory of ~28 distinct words, so ~200 MB at most); more than MAX_APPLY changes
 * behind, every index is dropped and built again. Weighted counts are kept in 16 bits: a
 * memory's content is at most 10,000 characters.
 */
const SYNC_BUILD = 2_000;
const SLICE = 1_000;
const MAX_DOCS = 500_000;
const MAX_APPLY = 2_000;
/** After a failed build, the store's path for this long before the next try. */
const BUILD_RETRY_MS = 60_000;
/** Dead documents (changed or deleted) past this share of a brain's: it is built again. */
const MAX_DEAD_SHARE = 0.5;

const TYPE_NUMBER = new Map<MemoryType, number>(MEMORY_TYPES.map((t, i) => [t, i + 1]));

/** A stem's postings: documents in ascending order (appended), the stem's weighted count in each. */
interface Postings {
  docs: Int32Array;
  tfs: Uint16Array;
  n: number;
  /** Live documents holding it: its document frequency. */
  live: number;
}

/** The best candidates of a query, by the store's key, best first. */
export interface Candidates {
  keys: number[];
  scores: number[];
}

/**
 * A brain's index as flat arrays, as a worker builds it and hands it over without a copy: the
 * stems, each one's postings (termStart into postDocs/postTfs), and each document's key, length,
 * type and stems (docTermStart into docTermIds).
 */
export interface FlatWords {
  terms: string[];
  termStart: Int32Array;
  postDocs: Int32Array;
  postTfs: Uint16Array;
  docKey: Float64Array;
  docLength: Float32Array;
  docType: Uint8Array;
  docTermStart: Int32Array;
  docTermIds: Int32Array;
  docTermTfs: Uint16Array;
}

export const flatBuffers = (f: FlatWords): ArrayBuffer[] =>
  [
    f.termStart,
    f.postDocs,
    f.postTfs,
    f.docKey,
    f.docLength,
    f.docType,
    f.docTermStart,
    f.docTermIds,
    f.docTermTfs,
  ].map((a) => a.buffer as ArrayBuffer);

/** The flat index of these texts (keys ascending): pure, so a worker can run it. */
export function flatWordsOf(texts: readonly IndexedMemoryText[]): FlatWords {
  const termId = new Map<string, number>();
  const termDocs: number[][] = [];
  const termTfs: number[][] = [];
  // For each stem, the last document that held it and where, so a second mention adds to it.
  let lastDoc = new Int32Array(1024).fill(-1);
  let lastAt = new Int32Array(1024);
  let lastDocTerm = new Int32Array(1024);
  const docTermStart = new Int32Array(texts.length + 1);
  const docTermIds: number[] = [];
  const docTermTfs: number[] = [];
  const docLength = new Float32Array(texts.length);
  const docType = new Uint8Array(texts.length);
  const docKey = new Float64Array(texts.length);
  texts.forEach((text, doc) => {
    let length = 0;
    forEachStem(text, (term, weight) => {
      length += weight;
      let id = termId.get(term);
      if (id === undefined) {
        id = termDocs.length;
        termId.set(term, id);
        termDocs.push([]);
        termTfs.push([]);
        if (id === lastDoc.length) {
          const grown = (a: Int32Array, fill: number) => {
            const b = new Int32Array(a.length * 2).fill(fill);
            b.set(a);
            return b;
          };
          lastDoc = grown(lastDoc, -1);
          lastAt = grown(lastAt, 0);
          lastDocTerm = grown(lastDocTerm, 0);
        }
      }
      const tfs = termTfs[id] as number[];
      if (lastDoc[id] === doc) {
        tfs[lastAt[id] as number] = (tfs[lastAt[id] as number] as number) + weight;
        docTermTfs[lastDocTerm[id] as number] = (docTermTfs[lastDocTerm[id] as number] as number) + weight;
        return;
      }
      lastDoc[id] = doc;
      lastAt[id] = tfs.length;
      lastDocTerm[id] = docTermIds.length;
      (termDocs[id] as number[]).push(doc);
      tfs.push(weight);
      docTermIds.push(id);
      docTermTfs.push(weight);
    });
    docTermStart[doc + 1] = docTermIds.length;
    docLength[doc] = length;
    docType[doc] = TYPE_NUMBER.get(text.memory_type) ?? 0;
    docKey[doc] = text.key;
  });
  const termStart = new Int32Array(termDocs.length + 1);
  termDocs.forEach((docs, i) => (termStart[i + 1] = (termStart[i] as number) + docs.length));
  const postDocs = new Int32Array(termStart[termDocs.length] as number);
  const postTfs = new Uint16Array(postDocs.length);
  termDocs.forEach((docs, i) => {
    postDocs.set(docs, termStart[i]);
    postTfs.set(termTfs[i] as number[], termStart[i]);
  });
  return {
    terms: [...termId.keys()],
    termStart,
    postDocs,
    postTfs,
    docKey,
    docLength,
    docType,
    docTermStart,
    docTermIds: Int32Array.from(docTermIds),
    docTermTfs: Uint16Array.from(docTermTfs),
  };
}

/**
 * One brain's index. Documents are numbered in the order they were added: those of the flat
 * base first (their stems in its arrays), then those put since.
 */
export class BrainWords {
  /** The neighbours read lately around this brain's memories (set when the index is kept). */
  turns: TurnsKept | undefined;
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
    }
    if (base) {
      base.terms.forEach((term, i) => {
        const from = base.termStart[i] as number;
        const to = base.termStart[i + 1] as number;
        // Views of exactly their length: the first append copies them out of the shared buffer.
        const p = {
          docs: base.postDocs.subarray(from, to),
          tfs: base.postTfs.subarray(from, to),
          n: to - from,
          live: to - from,
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
        p = { docs: new Int32Array(4), tfs: new Uint16Array(4), n: 0, live: 0 };
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
    const counts = new Map<string, number>();
    for (let i = base.docTermStart[doc] as number; i < (base.docTermStart[doc + 1] as number); i++) {
      counts.set(this.termNames[base.docTermIds[i] as number] as string, base.docTermTfs[i] as number);
    }
    return { counts, words: NO_WORDS, length: this.docLength[doc] as number };
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
  best(weights: ReadonlyMap<string, number>, type: MemoryType | undefined, k: number): Candidates {
    const { k1, b } = MEMORY_RANKING;
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

/** A brain whose index is being built in slices: the key read up to, and the log's seq when it began. */
interface Building {
  words: BrainWords;
  after: number;
  since: number;
  started: number;
}

/** A brain's index built in a worker or in slices (one built on a search is not told). */
export interface WordIndexBuilt {
  brain_id: string;
  memories: number;
  seconds: number;
  in_worker: boolean;
}

/** Every brain's index kept for one store. */
/** The turns around a memory (domain/memories/neighbours.ts), with each one's key when known. */
export interface KeptTurns {
  turns: Memory[];
  keys: Map<string, number>;
}

/**
 * The turns read around memories lately, by brain: a search reads those around its 8 best
 * matches, and they stay the same until the brain changes, which every search learns from the
 * change log first (catchUp): any change to a brain forgets its turns. At most TURNS_KEPT
 * memories' turns across brains (past it, all are forgotten).
 */
const TURNS_KEPT = 10_000;
class TurnsKept {
  private readonly byBrain = new Map<BrainWords, Map<string, KeptTurns>>();
  private count = 0;

  get(words: BrainWords, id: string): KeptTurns | undefined {
    return this.byBrain.get(words)?.get(id);
  }

  set(words: BrainWords, id: string, kept: KeptTurns): void {
    if (this.count >= TURNS_KEPT) {
      this.byBrain.clear();
      this.count = 0;
    }
    let brain = this.byBrain.get(words);
    if (!brain) this.byBrain.set(words, (brain = new Map()));
    if (!brain.has(id)) this.count++;
    brain.set(id, kept);
  }

  forget(words: BrainWords): void {
    this.count -= this.byBrain.get(words)?.size ?? 0;
    this.byBrain.delete(words);
  }

  clear(): void {
    this.byBrain.clear();
    this.count = 0;
  }
}

class WordIndexes {
  private readonly turns = new TurnsKept();
  /** The log's seq up to which changes are applied to every ready index. */
  private applied = -1;
  /** Ready indexes, least lately used first. */
  private readonly ready = new Map<string, BrainWords>();
  private readonly building = new Map<string, Building>();
  /** Brains too large to index (more than MAX_DOCS memories written). */
  private readonly tooLarge = new Set<string>();
  /** When a brain's build last failed: the next is not tried for BUILD_RETRY_MS. */
  private readonly failedAt = new Map<string, number>();
  private docs = 0;
  readonly listeners = new Set<(event: WordIndexBuilt) => void>();

  constructor(private readonly feed: MemoryTextFeed) {}

  private told(brainId: string, build: Building, inWorker: boolean): void {
    const event = {
      brain_id: brainId,
      memories: build.words.size,
      seconds: Math.round(performance.now() - build.started) / 1000,
      in_worker: inWorker,
    };
    for (const listener of this.listeners) listener(event);
  }

  /** The brain's index, up to date with every write; undefined while it is being built (or cannot be). */
  of(brainId: string): BrainWords | undefined {
    this.catchUp();
    const words = this.ready.get(brainId);
    if (words) {
      this.ready.delete(brainId);
      this.ready.set(brainId, words);
      return words;
    }
    if (this.building.has(brainId) || this.tooLarge.has(brainId)) return undefined;
    if (Date.now() - (this.failedAt.get(brainId) ?? -Infinity) < BUILD_RETRY_MS) return undefined;
    const keys = this.feed.brainKeys(brainId);
    if (!keys) return undefined;
    if (keys.written > MAX_DOCS) {
      this.tooLarge.add(brainId);
      return undefined;
    }
    const since = this.feed.changeMarks().latest;
    const build: Building = {
      words: new BrainWords(keys.lo, keys.hi),
      after: keys.lo - 1,
      since,
      started: performance.now(),
    };
    if (keys.written <= SYNC_BUILD) {
      for (const text of this.feed.brainTexts(brainId, build.after, SYNC_BUILD + 1)) build.words.put(text);
      return this.finish(brainId, build);
    }
    this.building.set(brainId, build);
    if (this.feed.workerReads) this.buildInWorker(brainId, build, this.feed.workerReads);
    else setImmediate(() => this.buildSlice(brainId, build));
    return undefined;
  }

  private buildInWorker(brainId: string, build: Building, reads: NonNullable<MemoryTextFeed['workerReads']>): void {
    const worker = workerFor({
      path: reads.path,
      read: { seq: reads.seq, texts: reads.texts, lo: build.words.lo, hi: build.words.hi },
    });
    // A process that ends (the CLI, a test) does not wait for a build it no longer needs.
    worker.unref();
    const failed = () => {
      if (this.building.get(brainId) !== build) return;
      this.building.delete(brainId);
      this.failedAt.set(brainId, Date.now());
    };
    worker.once('message', ({ seq, flat }: { seq: number; flat: FlatWords }) => {
      if (this.building.get(brainId) !== build) return;
      try {
        this.building.delete(brainId);
        const built = { ...build, words: new BrainWords(build.words.lo, build.words.hi, flat), since: seq };
        if (this.finish(brainId, built)) this.told(brainId, built, true);
      } catch {
        failed(); // the store closed under the build
      }
    });
    worker.once('error', failed);
    worker.once('exit', failed);
  }

  private buildSlice(brainId: string, build: Building): void {
    try {
      if (this.building.get(brainId) !== build) return;
      const texts = this.feed.brainTexts(brainId, build.after, SLICE);
      for (const text of texts) build.words.put(text);
      if (texts.length === SLICE) {
        build.after = (texts[texts.length - 1] as IndexedMemoryText).key;
        setImmediate(() => this.buildSlice(brainId, build));
        return;
      }
      this.building.delete(brainId);
      if (this.finish(brainId, build)) this.told(brainId, build, false);
    } catch {
      // The store closed (or failed) under the build.
      this.building.delete(brainId);
      this.failedAt.set(brainId, Date.now());
    }
  }

  /** Applies the changes made while the brain was read, and keeps its index. */
  private finish(brainId: string, build: Building): BrainWords | undefined {
    const { words } = build;
    const marks = this.feed.changeMarks();
    if (marks.latest - build.since > MAX_APPLY || build.since < marks.oldest - 1) return undefined;
    const changed = this.feed.changedKeys(build.since, marks.latest).filter((k) => k >= words.lo && k <= words.hi);
    this.apply(words, changed);
    while (this.docs + words.docs > MAX_DOCS && this.ready.size > 0) {
      const [oldest, dropped] = this.ready.entries().next().value as [string, BrainWords];
      this.ready.delete(oldest);
      this.turns.forget(dropped);
      this.docs -= dropped.docs;
    }
    words.turns = this.turns;
    this.ready.set(brainId, words);
    this.docs += words.docs;
    // Changes up to the build's own are in it; those after, catchUp applies to it as to the rest.
    if (this.applied < 0) this.applied = marks.latest;
    return words;
  }

  /** Applies every change logged since the last search to every ready index. */
  private catchUp(): void {
    if (this.ready.size === 0) {
      this.applied = -1;
      return;
    }
    const marks = this.feed.changeMarks();
    if (marks.latest === this.applied) return;
    if (marks.latest - this.applied > MAX_APPLY || this.applied < marks.oldest - 1) {
      this.dropAll();
      return;
    }
    const keys = this.feed.changedKeys(this.applied, marks.latest);
    for (const [brainId, words] of this.ready) {
      this.docs -= words.docs;
      this.apply(
        words,
        keys.filter((k) => k >= words.lo && k <= words.hi),
      );
      if (words.wornOut || this.docs + words.docs > MAX_DOCS) {
        this.ready.delete(brainId);
        this.turns.forget(words);
      } else this.docs += words.docs;
    }
    this.applied = marks.latest;
  }

  private apply(words: BrainWords, keys: number[]): void {
    if (keys.length === 0) return;
    this.turns.forget(words);
    const now = new Map(this.feed.texts(keys).map((t) => [t.key, t]));
    for (const key of keys) {
      const text = now.get(key);
      if (text) words.put(text);
      else words.remove(key);
    }
  }

  private dropAll(): void {
    this.ready.clear();
    this.turns.clear();
    this.docs = 0;
    this.applied = -1;
  }
}

/**
 * The build worker: the compiled file, or under tsx (the tests run the TypeScript sources) the
 * TypeScript one, loaded after registering tsx in the worker (a worker does not inherit it).
 */
function workerFor(workerData: object): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./word-index-worker.js', import.meta.url), { workerData });
  const source = new URL('./word-index-worker.ts', import.meta.url).href;
  const code = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(code, { eval: true, workerData });
}

const indexes = new WeakMap<MemoryTextFeed, WordIndexes>();

/** The brain's word index on this store, up to date; undefined when the search takes the store's path. */
export function wordIndexOf(feed: MemoryTextFeed, brainId: string): BrainWords | undefined {
  let kept = indexes.get(feed);
  if (!kept) indexes.set(feed, (kept = new WordIndexes(feed)));
  return kept.of(brainId);
}

/** Calls `listener` when a brain's index is built in a worker or in slices (the app logs it). */
export function onWordIndexBuilt(feed: MemoryTextFeed, listener: (event: WordIndexBuilt) => void): void {
  let kept = indexes.get(feed);
  if (!kept) indexes.set(feed, (kept = new WordIndexes(feed)));
  kept.listeners.add(listener);
}

/** The BM25 weight of each stem of `terms` (stem → a word of it) in the brain. */
export function weightsIn(words: BrainWords, terms: ReadonlyMap<string, string>): Map<string, number> {
  const df = words.df([...terms.values()]);
  const weights = new Map<string, number>();
  [...terms.keys()].forEach((term, i) => weights.set(term, idfOf(words.size, df[i] ?? 0)));
  return weights;
}
