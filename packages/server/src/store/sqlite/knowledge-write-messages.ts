import type { KnowledgeWrite } from '../knowledge-store.js';

/** What OffThreadWrites sends its worker (knowledge-write-worker.ts), and what it answers. */
export type WriteRequest = { id: number; accountId: string; write: KnowledgeWrite } | { id: number; close: true };
export type WriteAnswer =
  { id: number; edges: unknown[] } | { id: number; error: { message: string; name: string; code?: string } };
