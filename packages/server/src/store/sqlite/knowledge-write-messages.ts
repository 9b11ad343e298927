import type { KnowledgeWrite } from '../knowledge-store.js';
import type { WorkerAnswer, WorkerRequest } from './worker-calls.js';

/** What OffThreadWrites sends its worker (knowledge-write-worker.ts), and what it answers. */
export type WriteRequest = WorkerRequest<{ accountId: string; write: KnowledgeWrite }>;
export type WriteAnswer = WorkerAnswer<{ edges: unknown[] }>;
