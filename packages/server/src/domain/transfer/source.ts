import type { SourceLine } from './jsonl-source.js';

/** A file to import, read as often as needed (once to check it, once to write it). */
export interface ImportSource {
  /** Its lines; `text` sees every raw line, for the fingerprint. */
  lines(text?: (line: string) => void): AsyncIterable<SourceLine>;
  /** For progress while checking: how far reading has got, of how much. */
  readPosition(): { done: number; total: number };
}
