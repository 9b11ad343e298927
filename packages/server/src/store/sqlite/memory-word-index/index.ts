/**
 * The words of a brain's memories, in this process's memory: for each stem (memory-words.ts's words),
 * the memories that hold it with its weighted count, and each memory's weighted length. Memory
 * search reads its candidates (the best by the service's own BM25 over every match) and every
 * word's exact document frequency here, instead of FTS5's bm25 over every match and a count per
 * word. Kept in step with every process's writes through the store's log of changed keys
 * (MemoryTextFeed, migration 14 on SQLite): each search applies the changes since the last.
 *
 * Domain code sees it only as the memory store's MemoryWordIndex (store/memory-store.ts); the
 * SQL it reads, and the worker's own connection, stay in this folder (feed.ts, worker.ts).
 *
 * One module a job: feed.ts, the store's reads for it (feed-types.ts, their shape); flat.ts, the flat index of a brain's texts (as the worker, worker.ts, builds
 * it); brain-words.ts, one brain's index (put, remove, document frequencies, the best k);
 * turns-kept.ts, the turns kept around matches; indexes.ts, every brain's index kept for a store
 * (built at once, in slices or in the worker, kept in step with the change log, dropped when too
 * many).
 */
export { onWordIndexBuilt, wordIndexOf } from './indexes.js';
