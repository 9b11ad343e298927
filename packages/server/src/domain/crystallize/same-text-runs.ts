import { createHash } from 'node:crypto';

/**
 * Runs that turn the same text into snapshots of the same brain take turns in this process.
 * A run drops the insights its brain already holds by reading the brain before its own write,
 * so two runs of one text at the same moment (a client retrying while the first is still at
 * work) would both write everything; taking turns, the second finds what the first wrote and
 * creates nothing, as a second run after the first does. Other texts, and other brains, run
 * side by side. Processes do not share this: another process on the same database (a second
 * instance on PostgreSQL, the CLI on the server's SQLite file) can still write a simultaneous
 * copy (docs/design.md §11.2).
 */
const running = new Map<string, Promise<void>>();

/**
 * Runs `work` once the runs of the same brain and text before it have ended. A run whose signal
 * aborts while it waits leaves the line with the signal's reason, without running.
 */
export async function inTurnWithSameText<T>(
  brainId: string,
  text: string,
  work: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const key = `${brainId}:${createHash('sha256').update(text).digest('base64')}`;
  const before = running.get(key) ?? Promise.resolve();
  const mine = waitFor(before, signal).then(work);
  // The next in line waits for this run and, if it left the line early, for the one before it.
  const done = Promise.allSettled([before, mine]).then(() => undefined);
  running.set(key, done);
  // The last in line leaves nothing behind.
  void done.then(() => {
    if (running.get(key) === done) running.delete(key);
  });
  return mine;
}

function waitFor(before: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return before;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    void before.then(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    });
  });
}
