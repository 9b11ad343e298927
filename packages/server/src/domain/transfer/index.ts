/**
 * Data in and out (design §15): a brain exported as NDJSON or GraphML, streamed with flat
 * memory, and imported back — checked first, written in resumable, idempotent batches.
 */
import { statSync } from 'node:fs';
import { graphmlLines } from './graphml.js';
import type { ImportSource } from './import.js';
import { jsonLines } from './jsonl-source.js';

export { exportBrain, EXPORT_FORMATS, type ExportFormat } from './export.js';
export { importFile, ImportRejected, type ImportProgress, type ImportResult } from './import.js';
export { FORMAT_NAME, FORMAT_VERSION } from './format.js';

/** A file to import, NDJSON or GraphML (told apart by its first character). */
export function importSource(path: string, firstCharacter: string): ImportSource {
  const position = { bytesRead: 0 };
  const total = statSync(path).size;
  const graphml = firstCharacter === '<';
  return {
    lines: (text) => (graphml ? graphmlLines(path, position, text) : jsonLines(path, position, text)),
    readPosition: () => ({ done: position.bytesRead, total }),
  };
}
