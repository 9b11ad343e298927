import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

/** One line of an import file: its number (from 1), and its JSON or why it is not JSON. */
export type SourceLine = { line: number; value: unknown; error?: undefined } | { line: number; error: string };

/** Where reading has got to, for a progress bar: bytes read of the file's size. */
export interface ReadPosition {
  bytesRead: number;
}

/**
 * The lines of an NDJSON file, parsed one at a time (memory stays flat however long the file);
 * `text` sees every line's raw text, for the file's fingerprint.
 */
export async function* jsonLines(
  path: string,
  position: ReadPosition = { bytesRead: 0 },
  text?: (line: string) => void,
): AsyncIterable<SourceLine> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    position.bytesRead = stream.bytesRead;
    text?.(raw);
    if (raw.trim() === '') {
      yield { line, error: 'empty line' };
      continue;
    }
    try {
      // A byte-order mark (some Windows editors write one) is not part of the first line's JSON.
      yield { line, value: JSON.parse(line === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw) };
    } catch (err) {
      yield { line, error: `not valid JSON (${(err as Error).message})` };
    }
  }
}
