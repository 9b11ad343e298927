import type { Domain } from '../context.js';
import { COMPUTE_TASKS, type ComputeTasks, type TaskName } from './tasks.js';

export { ComputePool, type ComputeSettings } from './pool.js';
export type { TaskName } from './tasks.js';

/**
 * Runs CPU-heavy text work (tasks.ts) on the domain's compute pool, off the thread that answers
 * requests; where there is no pool (the CLI, which answers nobody else), in place.
 */
export async function compute<N extends TaskName>(
  domain: Pick<Domain, 'compute'>,
  task: N,
  args: Parameters<ComputeTasks[N]>,
  signal?: AbortSignal,
): Promise<ReturnType<ComputeTasks[N]>> {
  if (domain.compute) return domain.compute.run(task, args, signal) as Promise<ReturnType<ComputeTasks[N]>>;
  const run = COMPUTE_TASKS[task] as (...a: unknown[]) => ReturnType<ComputeTasks[N]>;
  return run(...args);
}
