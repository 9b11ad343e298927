import { moduleWorker } from '../../../module-worker.js';
import type { Memory } from '../../../model.js';
import type { MemorySearch, MemoryWordIndex, WordIndexBuilt } from '../../memory-store.js';
import type { IndexedMemoryText, MemoryTextFeed } from './feed-types.js';
import { BrainWords } from './brain-words.js';
import type { FlatWords } from './flat.js';
import { RowsKept } from './rows-kept.js';
import { TurnsKept } from './turns-kept.js';

/**
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

/** A brain whose index is being built in slices: the key read up to, and the log's seq when it began. */
interface Building {
  words: BrainWords;
  after: number;
  since: number;
  started: number;
}

/** Every brain's index kept for one store. */
class WordIndexes {
  private readonly turns = new TurnsKept<BrainWords>();
  /** Each query's count of matches (FTS5 counts every match: ~3 ms on 500 long turns), kept as turns are. */
  private readonly counts = new TurnsKept<BrainWords, number>();
  /** The memories read by key (the candidates), kept as turns are. */
  private readonly rows = new RowsKept<BrainWords>();
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
    const worker = moduleWorker(import.meta.url, 'worker', {
      path: reads.path,
      read: { seq: reads.seq, texts: reads.texts, lo: build.words.lo, hi: build.words.hi },
    });
    // A process that ends (the CLI, a test) does not wait for a build it no longer needs.
    worker.unref();
    const failed = () => {
      if (this.building.get(brainId) === build) this.failed(brainId);
    };
    worker.once('message', ({ seq, flat }: { seq: number; flat: FlatWords }) => {
      if (this.building.get(brainId) !== build) return;
      try {
        this.building.delete(brainId);
        const built = { ...build, words: new BrainWords(build.words.lo, build.words.hi, flat), since: seq };
        if (this.finish(brainId, built)) this.told(brainId, built, true);
      } catch {
        this.failed(brainId); // the store closed under the build
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
      this.failed(brainId); // the store closed (or failed) under the build
    }
  }

  /** A build that failed: the store's path answers for BUILD_RETRY_MS before the next try. */
  private failed(brainId: string): void {
    this.building.delete(brainId);
    this.failedAt.set(brainId, Date.now());
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
      this.counts.forget(dropped);
      this.rows.forget(dropped);
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
        this.counts.forget(words);
        this.rows.forget(words);
      } else this.docs += words.docs;
    }
    this.applied = marks.latest;
  }

  private apply(words: BrainWords, keys: number[]): void {
    if (keys.length === 0) return;
    this.turns.forget(words);
    this.counts.forget(words);
    this.rows.forget(words);
    const now = new Map(this.feed.texts(keys).map((t) => [t.key, t]));
    for (const key of keys) {
      const text = now.get(key);
      if (text) words.put(text);
      else words.remove(key);
    }
  }

  /**
   * How many memories of the brain match the search's query (and type), as the store counts
   * them; asked of the store once until the brain changes. The index's searches filter by
   * nothing else (search.ts, byWordIndexAllowed).
   */
  countOf(words: BrainWords, search: Omit<MemorySearch, 'limit'>): number {
    const key = JSON.stringify([search.query, search.memoryType ?? null]);
    const kept = this.counts.get(words, key);
    if (kept !== undefined) return kept;
    const count = this.feed.countMatches(search);
    this.counts.set(words, key, count);
    return count;
  }

  /** The memories of these keys that still exist, by key: kept since the brain last changed, or read. */
  memoriesOf(words: BrainWords, keys: readonly number[]): Map<number, Memory> {
    return this.rows.read(words, keys, (missing) => this.feed.memories(missing));
  }

  private dropAll(): void {
    this.ready.clear();
    this.turns.clear();
    this.counts.clear();
    this.rows.clear();
    this.docs = 0;
    this.applied = -1;
  }
}

const indexes = new WeakMap<MemoryTextFeed, WordIndexes>();

/** The brain's word index on this store, up to date; undefined when the search takes the store's path. */
export function wordIndexOf(feed: MemoryTextFeed, brainId: string): MemoryWordIndex | undefined {
  const kept = indexesOf(feed);
  const words = kept.of(brainId);
  if (!words) return undefined;
  return {
    size: words.size,
    df: (list) => words.df(list),
    dfOfStems: (stems) => words.dfOfStems(stems),
    best: (weights, type, k, bm25) => words.best(weights, type, k, bm25),
    bagOfKey: (key) => words.bagOfKey(key),
    keptTurns: (id) => words.keptTurns(id),
    keepTurns: (id, kept) => words.keepTurns(id, kept),
    memories: (keys) => kept.memoriesOf(words, keys),
    keysOf: (ids) => feed.keysOf(ids),
    countMatches: (search) => kept.countOf(words, search),
  };
}

/** Calls `listener` when a brain's index is built in a worker or in slices (the app logs it). */
export function onWordIndexBuilt(feed: MemoryTextFeed, listener: (event: WordIndexBuilt) => void): void {
  indexesOf(feed).listeners.add(listener);
}

function indexesOf(feed: MemoryTextFeed): WordIndexes {
  let kept = indexes.get(feed);
  if (!kept) indexes.set(feed, (kept = new WordIndexes(feed)));
  return kept;
}
