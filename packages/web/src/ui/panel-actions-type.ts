import type { Edge, SnapshotUpdate, Suggestion } from '@snapgraph/client';
import type { SnapGraph } from '../graph/build.js';

/** What the side panel needs of the explorer; main.ts provides it. */
export interface PanelActions {
  graph(): SnapGraph | undefined;
  select(id: string): void;
  save(id: string, update: SnapshotUpdate): Promise<void>;
  remove(id: string): Promise<void>;
  expand(id: string): Promise<void>;
  suggestions(id: string): Promise<Suggestion[]>;
  createEdge(body: {
    source_id: string;
    target_id: string;
    edge_type: string;
    strength: number;
    label?: string;
  }): Promise<Edge>;
  deleteEdge(id: string): Promise<void>;
  /** Turns a suggestion down for good (made and deleted: the tombstone keeps it away). */
  rejectSuggestion(suggestion: Suggestion): Promise<void>;
  fail(err: unknown): void;
  /** A message that is not an error. */
  tell(text: string): void;
}
