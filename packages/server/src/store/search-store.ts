import type { EdgeType, SnapshotType } from '../model.js';

/**
 * A search query as the stores need it: plain terms (matched after stemming), prefixes
 * (`learn*`) and phrases, each lower-cased letters and digits only, so nothing a user types can
 * be read as query syntax by FTS5 or to_tsquery. Any part matching makes a match (OR).
 */
export interface ParsedQuery {
  terms: string[];
  prefixes: string[];
  phrases: string[][];
}

/** Where a search looks: one brain, optionally one type and one tag. */
export interface SearchScope {
  brainId: string;
  type?: SnapshotType | undefined;
  tag?: string | undefined;
}

/** A text match: its relevance (higher is better; the store's own scale) and age for ties. */
export interface TextHit {
  id: string;
  relevance: number;
  created_at: string;
}

export interface TextMatches {
  hits: TextHit[];
  total: number;
  /**
   * Which of `ids` match the query in scope at any depth, not only among the hits. Asked for
   * the few snapshots the graph or meaning reaches, so that no store reads every match.
   */
  matching(ids: string[]): Promise<ReadonlySet<string>>;
}

/** A snapshot in scope as ranking needs it: no row is read beyond the page. */
export interface ScopedSnapshot {
  id: string;
  created_at: string;
}

/** An `evolved_from` edge: `source_id` is the newer version of `target_id`. */
export interface Evolution {
  source_id: string;
  target_id: string;
}

/** An edge as the ranking sees it. */
export interface GraphEdge {
  id: string;
  source_id: string;
  target_id: string;
  edge_type: EdgeType;
  strength: number;
}

/** A snapshot found by search: its JSON text and what ordering needs. */
export interface FoundSnapshot {
  id: string;
  name: string;
  created_at: string;
  json: string;
}

/** A `contradicts` edge touching `subject_id`, with the snapshot at its other end. */
export interface Contradiction {
  subject_id: string;
  snapshot_id: string;
  name: string;
  edge_id: string;
  strength: number;
}

/** The state of a store's in-memory text index (SQLite), for /metrics. */
export interface TextIndexStatus {
  /** True once it answers queries of plain words (FTS5 does while it is built). */
  ready: boolean;
  /** The snapshots it holds. */
  documents: number;
  /** How many times it has been built from FTS5 since the process started. */
  builds: number;
}

/** What the in-memory text index reports, as logged: a build (with what it took), or a failure. */
export type TextIndexEvent =
  | {
      kind: 'built';
      documents: number;
      seconds: number;
      /** Built in a worker thread (large files), or in the thread that asked (small ones). */
      inWorker: boolean;
    }
  | { kind: 'failed'; message: string };

/**
 * The reads search needs, on both stores. The domain owns the ranking; a store only finds text
 * matches with their relevance (SQLite: FTS5 BM25; PostgreSQL: ts_rank over weighted tsvectors)
 * and reads rows and edges.
 */
export interface SearchStore {
  /**
   * The `limit` most relevant text matches in scope, best first (with any tied with the last),
   * how many match in all, and a way to ask which snapshots match at all (those deeper than
   * `limit` rank below every hit).
   */
  textMatches(scope: SearchScope, query: ParsedQuery, limit: number): Promise<TextMatches>;
  /**
   * The ids of the `limit` most relevant text matches in the brain, in the order of
   * textMatches' hits (relevance, then newest, then id), without counting the rest: the
   * linker's candidates, searched for each insight of a crystallize run, need no total.
   */
  bestMatchIds(brainId: string, query: ParsedQuery, limit: number): Promise<string[]>;
  /**
   * Up to `cap` snapshots of the brain whose text holds `words` as a phrase (after stemming), in
   * no particular order: the linker asks which snapshots name a thing, and whether only a few.
   */
  holdersOf(brainId: string, words: string[], cap: number): Promise<string[]>;
  /** Edges of the brain touching any of `ids`, in either direction, strongest first, at most `limit`. */
  edgesTouching(brainId: string, ids: string[], limit: number): Promise<GraphEdge[]>;
  /** Those of `ids` in scope (brain, type, tag), with their JSON. */
  snapshotsIn(scope: SearchScope, ids: string[]): Promise<FoundSnapshot[]>;
  /** Those of `ids` in scope (brain, type, tag), without their JSON. */
  inScope(scope: SearchScope, ids: string[]): Promise<ScopedSnapshot[]>;
  /** The `evolved_from` edges of the brain into any of `older` from any of `newer`. */
  evolutionsInto(brainId: string, older: string[], newer: string[]): Promise<Evolution[]>;
  /**
   * In how many snapshots each word occurs (after stemming), counted up to `cap`: enough to tell
   * rare words from common ones. The brain's on PostgreSQL; the whole index's on SQLite, whose
   * BM25 statistics are the whole index's too. May be up to a minute old.
   */
  documentFrequencies(brainId: string, words: string[], cap: number): Promise<Map<string, number>>;
  /** The `contradicts` edges touching any of `ids`, strongest first. */
  contradictionsOf(brainId: string, ids: string[]): Promise<Contradiction[]>;
  /** The in-memory text index's state, on a store that keeps one (SQLite). */
  textIndexStatus?(): TextIndexStatus;
  /** Calls `listener` after each build of the in-memory text index, and on each failure. */
  onTextIndexEvent?(listener: (event: TextIndexEvent) => void): void;
}
