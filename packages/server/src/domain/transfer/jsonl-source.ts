import { createReadStream } from 'node:fs';

/** One line of an import file: its number (from 1), and its JSON or why it is not JSON. */
export type SourceLine = { line: number; value: unknown; error?: undefined } | { line: number; error: string };

/** Where reading has got to, for a progress bar: bytes read of the file's size. */
export interface ReadPosition {
  bytesRead: number;
}

/** Line breaks as readline reads them: CRLF, LF, or a lone CR. */
const LINE_BREAK = /\r\n|\n|\r/;

/**
 * The lines of an NDJSON file, parsed one at a time (memory stays flat however long the file);
 * `text` sees every line's raw text, for the file's fingerprint. Each chunk read is split here
 * and its lines handed over one by one, so that the reader (checkFile) can give the event loop
 * turns between them: readline emitted a chunk's lines all in one turn, a quarter million blank
 * ones a second long.
 */
export async function* jsonLines(
  path: string,
  position: ReadPosition = { bytesRead: 0 },
  text?: (line: string) => void,
): AsyncIterable<SourceLine> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  let line = 0;
  const parsed = (raw: string): SourceLine => {
    line++;
    position.bytesRead = stream.bytesRead;
    text?.(raw);
    if (raw.trim() === '') return { line, error: 'empty line' };
    try {
      // A byte-order mark (some Windows editors write one) is not part of the first line's JSON.
      return { line, value: JSON.parse(line === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw) };
    } catch (err) {
      return { line, error: `not valid JSON (${(err as Error).message})` };
    }
  };
  let rest = '';
  for await (const chunk of stream as AsyncIterable<string>) {
    let read = rest + chunk;
    // A CR at the end of a chunk may be the first half of a CRLF: it waits for the next chunk.
    const carriage = read.endsWith('\r') ? '\r' : '';
    if (carriage) read = read.slice(0, -1);
    const lines = read.split(LINE_BREAK);
    rest = (lines.pop() as string) + carriage;
    for (const raw of lines) yield parsed(raw);
  }
  const last = rest.endsWith('\r') ? rest.slice(0, -1) : rest;
  if (last !== '') yield parsed(last);
}
