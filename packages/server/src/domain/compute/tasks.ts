import { extractKnowledgeEntries, extractMemories, extractSnapshots, plainText } from '../extraction/index.js';
import { mergeNearDuplicates } from '../crystallize/synthesize.js';
import { linkAmongNew } from '../linking/among-new.js';

/**
 * The CPU-heavy text work that runs on the compute pool's threads (pool.ts), by name: pure
 * functions whose arguments and results survive structured cloning (plain objects, arrays,
 * Sets, Maps). The worker (worker.ts) imports this table; without a pool (the CLI) the same
 * functions run in place.
 */
export const COMPUTE_TASKS = {
  extractSnapshots,
  extractKnowledgeEntries,
  extractMemories,
  plainText,
  linkAmongNew,
  mergeNearDuplicates,
};

export type ComputeTasks = typeof COMPUTE_TASKS;
export type TaskName = keyof ComputeTasks;
