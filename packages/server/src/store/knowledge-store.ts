import type {
  Capture,
  CrystallizeRun,
  Edge,
  EntryType,
  KnowledgeEntry,
  KnowledgeSource,
  Memory,
  Page,
  PageOf,
  Snapshot,
} from '../model.js';
import type { JobWrite } from './job-store.js';
import type { MemoryPromotion } from './memory-store.js';
import type { ParsedQuery } from './search-store.js';

/** What a capture's decision writes along with the run's other output. */
export interface CaptureDecision {
  id: string;
  status: 'accepted' | 'rejected';
  /** The snapshot an accepted capture became. */
  snapshotId: string | null;
  at: string;
}

/**
 * Everything one crystallize run, capture decision or ingestion writes: stored together or not
 * at all (design §11: "the whole run is one transaction").
 */
export interface KnowledgeWrite {
  snapshots?: Snapshot[];
  /**
   * Automatic edges: each made only if both its snapshots still exist, no edge joins them yet
   * (any type, origin or direction) and its (pair, type) has no tombstone. Those that fail a
   * check are left out; the rest of the write goes ahead.
   */
  autoEdges?: Edge[];
  run?: CrystallizeRun;
  captures?: Capture[];
  /** The capture must still be pending, or nothing is written (NOT_FOUND). */
  decision?: CaptureDecision;
  source?: KnowledgeSource;
  entries?: KnowledgeEntry[];
  /** Memories made with the snapshots (POST /v1/ingest with extract_memories). */
  memories?: Memory[];
  /** A memory promoted into the snapshots (POST /v1/memories/:id/crystallize); checked first. */
  promotion?: MemoryPromotion;
  /**
   * The job whose output this is: recorded as the job's `written` (JobOutput: `draft` and the
   * edges made) in the same transaction, which is refused (JobOutputRefused) unless `owner`
   * still holds the running job and nothing was recorded yet. So the output and the job's
   * knowledge of it commit together, and once.
   */
  job?: JobWrite;
}

/** A pending capture with what accepting it needs: the source type of its run. */
export interface PendingCapture {
  capture: Capture;
  sourceType: string;
}

export interface EntrySearch {
  brainId: string;
  query: ParsedQuery;
  domain?: string | undefined;
  entryType?: EntryType | undefined;
  limit: number;
}

/** Crystallize runs, captures and specific knowledge (design §11, §13), on both stores. */
export interface KnowledgeStore {
  /** One transaction; returns the automatic edges actually made. */
  write(accountId: string, write: KnowledgeWrite): Promise<{ edges: Edge[] }>;

  getRun(accountId: string, id: string): Promise<CrystallizeRun | undefined>;
  getPendingCapture(accountId: string, id: string): Promise<PendingCapture | undefined>;
  /** Pending captures of a brain, newest first (`after` for cursor pages). */
  listPendingCaptures(brainId: string, page: Page): Promise<PageOf<Capture>>;

  getSource(accountId: string, id: string): Promise<KnowledgeSource | undefined>;
  listSources(brainId: string, page: Page): Promise<PageOf<KnowledgeSource>>;
  /** A source's entries in the order they were extracted. */
  entriesOf(sourceId: string): Promise<KnowledgeEntry[]>;
  /** Deletes the source and its entries (its snapshots stay). */
  deleteSource(accountId: string, id: string): Promise<boolean>;

  getEntry(accountId: string, id: string): Promise<KnowledgeEntry | undefined>;
  /** Runs `change` on the entry inside the transaction and stores what it returns. */
  updateEntry(
    accountId: string,
    id: string,
    change: (current: KnowledgeEntry) => KnowledgeEntry,
  ): Promise<KnowledgeEntry | undefined>;
  /** Entries matching the query, most relevant first (relevance on the store's own scale), and how many match. */
  searchEntries(search: EntrySearch): Promise<{ hits: { entry: KnowledgeEntry; relevance: number }[]; total: number }>;
}
