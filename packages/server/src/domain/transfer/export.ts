import type { Domain } from '../context.js';
import { endLine, FORMAT_NAME, FORMAT_VERSION, headerLine, recordLine, type ExportRecord } from './format.js';
import { graphmlDocument } from './graphml.js';
import { SECTIONS } from './sections/index.js';

export type { ExportRecord } from './format.js';

export type ExportFormat = 'jsonl' | 'graphml';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'graphml'];

/** Text is handed on in pieces of about this size: few writes, and memory stays flat. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Every record of a brain, section by section, read from one consistent view of the database
 * (a read transaction) a batch at a time: memory stays flat whatever the brain's size. The
 * caller has checked that the brain exists and is the caller's.
 */
export async function* brainRecords(domain: Domain, brainId: string): AsyncIterable<ExportRecord> {
  const reader = await domain.store.transfer.openReader();
  try {
    for (const section of SECTIONS) {
      for await (const row of reader.rows(section.shape, brainId))
        yield { kind: section.kind, data: section.toRecord(row) };
    }
  } finally {
    await reader.close();
  }
}

/** The export file of a brain as text, in pieces (format.ts describes the NDJSON form). */
export async function* exportBrain(
  domain: Domain,
  brainId: string,
  format: ExportFormat = 'jsonl',
): AsyncIterable<string> {
  const text = format === 'graphml' ? graphmlDocument(brainRecords(domain, brainId)) : ndjson(domain, brainId);
  let chunk = '';
  for await (const piece of text) {
    chunk += piece;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

async function* ndjson(domain: Domain, brainId: string): AsyncIterable<string> {
  yield headerLine({
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    exported_at: new Date(domain.clock.now()).toISOString(),
    brain_id: brainId,
    sections: SECTIONS.map((section) => section.kind),
  });
  const counts: Record<string, number> = {};
  for await (const record of brainRecords(domain, brainId)) {
    counts[record.kind] = (counts[record.kind] ?? 0) + 1;
    yield recordLine(record.kind, record.data);
  }
  yield endLine(counts);
}
