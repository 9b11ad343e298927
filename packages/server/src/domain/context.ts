import type { Clock } from '../clock.js';
import type { ChatProvider } from '../providers/chat.js';
import type { Store } from '../store/store.js';
import type { ComputePool } from './compute/pool.js';
import type { SemanticIndex } from './search/semantic.js';

/** What every domain operation needs: where data lives and what time it is. */
export interface Domain {
  store: Store;
  clock: Clock;
  /** The background worker, when this process runs one: told when a write may have queued work. */
  background?: { nudge(): void };
  /** The job runner, when this process runs one: told when a job was queued. */
  jobs?: { nudge(): void };
  /** Meaning: present when an embedding provider is configured (EMBEDDINGS_BASE_URL). */
  semantic?: SemanticIndex;
  /** An LLM: present when LLM_BASE_URL is configured; without one the built-in extractor works. */
  llm?: ChatProvider;
  /** Threads for CPU-heavy text work (domain/compute); without one (the CLI) it runs in place. */
  compute?: ComputePool;
}
