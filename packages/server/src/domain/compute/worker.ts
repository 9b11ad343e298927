// A thread of the compute pool (pool.ts): runs one task at a time, by name, and answers with
// its value or its error's message. Everything it needs is loaded here, once per thread, before
// it says it is ready: a call's time budget is the call's own, not the thread's start.
import { parentPort } from 'node:worker_threads';
import { COMPUTE_TASKS, type TaskName } from './tasks.js';

interface Call {
  id: number;
  task: TaskName;
  args: unknown[];
}

parentPort?.on('message', (call: Call) => {
  try {
    const run = COMPUTE_TASKS[call.task] as (...args: unknown[]) => unknown;
    parentPort?.postMessage({ id: call.id, ok: true, value: run(...call.args) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    parentPort?.postMessage({ id: call.id, ok: false, message });
  }
});

// The language model loads on first use: load it now, with a sentence.
COMPUTE_TASKS.extractSnapshots('A thread warms up its model before any call counts against the time budget.');
parentPort?.postMessage({ ready: true });
