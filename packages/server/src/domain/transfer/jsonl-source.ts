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
  chunkBytes = 256 * 1024,
): AsyncIterable<SourceLine> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: chunkBytes });
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
  // The pieces of a line that runs over chunks, joined once it ends: only each new chunk is
  // searched for line breaks (searching the line so far again made a 64 MB line cost 17 s).
  let partial: string[] = [];
  let afterCarriageReturn = false;
  for await (const read of stream as AsyncIterable<string>) {
    // The LF of a CRLF that the chunks split: the CR already ended the line.
    const chunk: string = afterCarriageReturn && read.startsWith('\n') ? read.slice(1) : read;
    afterCarriageReturn = chunk.endsWith('\r');
    if (chunk === '') continue;
    const pieces = chunk.split(LINE_BREAK);
    if (pieces.length === 1) {
      partial.push(chunk);
      continue;
    }
    partial.push(pieces[0] as string);
    yield parsed(partial.join(''));
    for (let i = 1; i < pieces.length - 1; i++) yield parsed(pieces[i] as string);
    const last = pieces[pieces.length - 1] as string;
    partial = last === '' ? [] : [last];
  }
  if (partial.length > 0) yield parsed(partial.join(''));
}
