import type { SqliteDatabase } from '../open-database.js';
import { DOUBLED_WEIGHTS, FTS_ROW_SIZES_SQL, rowLength, type FtsStatistics } from './bm25.js';
import { PostingsWriter, type Postings } from './postings.js';
import { CHANGES_KEPT, ChangeLog } from './changes.js';

/**
 * The index as read from FTS5 at one moment: every indexed snapshot (a document, numbered in
 * rowid order), and every term's postings. Typed arrays and plain arrays only, so that it can
 * cross from the worker that builds it without a copy.
 */
export interface BaseSegment {
  /** The change log's position this segment reflects (text-index/changes.ts). */
  seq: number;
  /** FTS5's row count and total tokens at that position. */
  statistics: FtsStatistics;
  /** Terms, in FTS5's order; a term's number is its place here. */
  terms: string[];
  postings: Postings;
  /** Per document: its rowid in snapshot_search_rows (ascending), brain and type. */
  docRowid: Int32Array;
  docBrain: Int32Array;
  docType: Uint8Array;
  /** Brain ids, by the number docBrain holds. */
  brains: string[];
}

/** Snapshot types by the number docType holds (0: none known). */
export const typeNumbers = (types: readonly string[]) => new Map(types.map((type, i) => [type, i + 1]));

/**
 * Reads FTS5's own index (fts5vocab, 'instance': every token of every row) in one read
 * transaction, so that the documents, their tokens and the change log's position agree. Tokens
 * are FTS5's own, stemmed and folded by its tokenizer: nothing here re-implements it. About 55 µs
 * a snapshot of ~45 tokens (53–70 s at 1,000,000); run in a worker (build-worker.ts).
 */
export function buildBaseSegment(db: SqliteDatabase, types: readonly string[]): BaseSegment {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.snapshot_search_terms USING fts5vocab(main, snapshot_search, 'row');
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.snapshot_search_tokens USING fts5vocab(main, snapshot_search, 'instance');`);
  return db
    .transaction(() => {
      const log = new ChangeLog(db);
      const seq = log.latest();
      const statistics = log.statistics();
      const rows = db.prepare('SELECT rowid, brain_id, type FROM snapshot_search_rows ORDER BY rowid').raw().all() as [
        number,
        string,
        string,
      ][];
      const docs = rows.length;
      const docRowid = new Int32Array(docs);
      const docBrain = new Int32Array(docs);
      const docType = new Uint8Array(docs);
      const brainNumber = new Map<string, number>();
      const typeNumber = typeNumbers(types);
      const maxRowid = docs === 0 ? 0 : (rows[docs - 1] as [number, string, string])[0];
      const docOfRowid = new Int32Array(maxRowid + 1).fill(-1);
      const docOf = (rowid: number) => (rowid <= maxRowid ? (docOfRowid[rowid] as number) : -1);
      rows.forEach(([rowid, brain, type], doc) => {
        docRowid[doc] = rowid;
        docOfRowid[rowid] = doc;
        let number = brainNumber.get(brain);
        if (number === undefined) brainNumber.set(brain, (number = brainNumber.size));
        docBrain[doc] = number;
        docType[doc] = typeNumber.get(type) ?? 0;
      });

      // Each row's length as bm25 reads it: FTS5's own size record.
      const docLength = new Uint32Array(docs);
      for (const [rowid, sizes] of db.prepare(FTS_ROW_SIZES_SQL).raw().iterate() as IterableIterator<
        [number, Buffer]
      >) {
        const doc = docOf(rowid);
        if (doc >= 0) docLength[doc] = rowLength(sizes);
      }
      const terms = db.prepare('SELECT term FROM temp.snapshot_search_terms').pluck().all() as string[];
      const tokensOf = db.prepare('SELECT doc, col FROM temp.snapshot_search_tokens WHERE term = ?').raw();
      const writer = new PostingsWriter();
      for (const term of terms) {
        // Tokens come by document, so each document's frequency is summed before the next.
        let current = -1;
        let frequency = 0;
        for (const [rowid, column] of tokensOf.iterate(term) as IterableIterator<[number, string]>) {
          const doc = docOf(rowid);
          if (doc < 0) continue;
          if (doc !== current) {
            if (current >= 0) writer.add(current, frequency, docLength[current] as number);
            current = doc;
            frequency = 0;
          }
          frequency += DOUBLED_WEIGHTS[column] ?? 0;
        }
        if (current >= 0) writer.add(current, frequency, docLength[current] as number);
        writer.endTerm();
      }
      return {
        seq,
        statistics,
        terms,
        postings: writer.finish(),
        docRowid,
        docBrain,
        docType,
        brains: [...brainNumber.keys()],
      };
    })
    .deferred();
}

/**
 * After a build at `seq`, the log's older entries are of no use to this process: they are
 * forgotten, a few thousand per transaction (the build worker does this after handing its segment
 * over). Another process whose index is further behind than CHANGES_KEPT builds again.
 */
export function pruneChanges(log: ChangeLog, seq: number, pause = () => {}): void {
  while (log.pruneSome(seq - CHANGES_KEPT) > 0) pause();
}

/** The buffers of a segment, to hand to postMessage's transfer list. */
export const segmentBuffers = (segment: BaseSegment): ArrayBuffer[] =>
  [
    segment.postings.bytes,
    segment.postings.blockOffset,
    segment.postings.blockLast,
    segment.postings.termBlock,
    segment.postings.termCount,
    segment.docRowid,
    segment.docBrain,
    segment.docType,
  ].map((array) => array.buffer as ArrayBuffer);
