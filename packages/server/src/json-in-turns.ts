import { setImmediate } from 'node:timers/promises';

/** Items of a long array stringified in one turn of the event loop. */
const ITEMS_PER_TURN = 500;

/**
 * JSON.stringify(value), with every array longer than ITEMS_PER_TURN stringified ITEMS_PER_TURN
 * items a turn of the event loop: the same text, without one long synchronous pass. For plain
 * data (objects, arrays, strings, numbers, booleans, null), as the stores' rows are. Posting a
 * large write's 24,000 rows to a worker as objects held the loop about 0.2 s for the structured
 * clone (docs/performance.md, "Large writes beside small ones"); a string is copied in a few
 * milliseconds and parsed on the other side.
 */
export async function stringifyInTurns(value: unknown): Promise<string> {
  const pieces: string[] = [];
  await write(value, pieces);
  return pieces.join('');
}

async function write(value: unknown, pieces: string[]): Promise<void> {
  if (Array.isArray(value) && value.length > ITEMS_PER_TURN) {
    pieces.push('[');
    for (let at = 0; at < value.length; at += ITEMS_PER_TURN) {
      if (at > 0) {
        pieces.push(',');
        await setImmediate();
      }
      // An array's own text without its brackets: holes and undefined become null, as they would.
      pieces.push(JSON.stringify(value.slice(at, at + ITEMS_PER_TURN)).slice(1, -1));
    }
    pieces.push(']');
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || hasToJson(value)) {
    pieces.push(JSON.stringify(value) ?? 'null');
    return;
  }
  pieces.push('{');
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    // Left out as JSON.stringify leaves them out.
    if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
    pieces.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    await write(field, pieces);
  }
  pieces.push('}');
}

const hasToJson = (value: object) => typeof (value as { toJSON?: unknown }).toJSON === 'function';
