import { setImmediate } from 'node:timers/promises';

/**
 * Rows a loop over a large request's rows works through in one turn of the event loop. A 1 MB
 * knowledge ingest makes about 12,000 entries and as many snapshots: one synchronous pass over
 * them (clipping their text, making ids, building rows) held the loop 0.2 s on a quiet machine
 * and far longer on a loaded one, every other request waiting (docs/performance.md, "Large
 * writes beside small ones"). A few hundred rows are a few milliseconds.
 */
export const ROWS_PER_TURN = 500;

/** `items.map(work)`, ROWS_PER_TURN items a turn of the event loop, other work in between. */
export async function mapInTurns<T, U>(items: readonly T[], work: (item: T, index: number) => U): Promise<U[]> {
  const out: U[] = [];
  for (let at = 0; at < items.length; at += ROWS_PER_TURN) {
    if (at > 0) await setImmediate();
    const end = Math.min(items.length, at + ROWS_PER_TURN);
    for (let i = at; i < end; i++) out.push(work(items[i] as T, i));
  }
  return out;
}

/** For a loop at row `i`: a turn of the event loop once every ROWS_PER_TURN rows, else nothing to wait for. */
export function turnAfterRows(i: number): Promise<void> | undefined {
  return i > 0 && i % ROWS_PER_TURN === 0 ? setImmediate() : undefined;
}
