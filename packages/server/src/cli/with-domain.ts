import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import type { Domain } from '../domain/context.js';
import { databaseLabel } from '../database-label.js';
import { openStore } from '../store/open-store.js';
import { processIo, type CliIo } from './io.js';

/**
 * Runs one command against the configured database (named on standard error), migrated first if the config says so
 * (`migrate: false` for the migrate command itself, which reports what it applies).
 */
export async function withDomain<T>(
  work: (domain: Domain) => Promise<T>,
  options: { migrate: boolean; llm?: boolean; io?: CliIo } = { migrate: true },
): Promise<T> {
  const config = loadConfig();
  // Which database a command wrote to is never a guess (design §16.3); standard error, so
  // --json output stays what it was.
  (options.io ?? processIo).err(`database: ${databaseLabel(config.databaseUrl)}`);
  const store = await openStore(config.databaseUrl, config.postgres);
  try {
    if (options.migrate && config.migrateOnStart) await store.migrate();
    const domain: Domain = { store, clock: systemClock };
    // Only the commands that turn text into knowledge load the LLM provider (LLM_BASE_URL).
    if (options.llm && config.llm) domain.llm = (await import('../providers/chat.js')).createChatProvider(config.llm);
    return await work(domain);
  } finally {
    await store.close();
  }
}
