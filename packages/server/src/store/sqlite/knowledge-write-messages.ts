import type { WorkerAnswer, WorkerRequest } from './worker-calls.js';

/**
 * What OffThreadWrites sends its worker (knowledge-write-worker.ts), and what it answers;
 * `writeJson` is the KnowledgeWrite as JSON (OffThreadWrites.write says why).
 */
export type WriteRequest = WorkerRequest<{ accountId: string; writeJson: string }>;
export type WriteAnswer = WorkerAnswer<{ edges: unknown[] }>;
