import { createHash } from 'node:crypto';

/**
 * Runs that turn the same text into snapshots of the same brain take turns in this process.
 * A run drops the insights its brain already holds by reading the brain before its own write,
 * so two runs of one text at the same moment (a client retrying while the first is still at
 * work) would both write everything; taking turns, the second finds what the first wrote and
 * creates nothing, as a second run after the first does. Other texts, and other brains, run
 * side by side. Processes do not share this: several instances on one PostgreSQL database can
 * still each write a simultaneous copy (docs/design.md §11.2).
 */
const running = new Map<string, Promise<void>>();

export async function inTurnWithSameText<T>(brainId: string, text: string, work: () => Promise<T>): Promise<T> {
  const key = `${brainId}:${createHash('sha256').update(text).digest('base64')}`;
  const before = running.get(key) ?? Promise.resolve();
  const mine = before.then(work);
  const done = mine.then(
    () => undefined,
    () => undefined,
  );
  running.set(key, done);
  try {
    return await mine;
  } finally {
    // The last in line leaves nothing behind.
    if (running.get(key) === done) running.delete(key);
  }
}
