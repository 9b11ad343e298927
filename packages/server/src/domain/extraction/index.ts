/**
 * The built-in extractor (design §10.4): deterministic, offline, English. It turns
 * free text into snapshots (crystallize), knowledge entries (specific-knowledge ingestion) and
 * memories (ingestion with `extract_memories`) when no LLM is configured, and cuts long text
 * into chunks for an LLM's context. Pure functions: no I/O, no store. The rules are published
 * in docs/extraction.md.
 */
export { extractSnapshots } from './snapshots.js';
export { extractKnowledgeEntries, type KnowledgeContext } from './knowledge.js';
export { extractMemories } from './memories.js';
export { chunkText, estimateTokens } from './chunking.js';
export { detectFormat, plainText, TEXT_FORMATS, type TextFormat } from './document.js';
export type { ExtractedSnapshot, ExtractedEntry, ExtractedMemory, EntryType, MemoryType } from './types.js';
export type { CalendarDate } from './dates.js';
export { ENTRY_TYPES, MEMORY_TYPES } from './types.js';
