import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';
import type { Domain } from '../domain/context.js';
import { openStore } from '../store/open-store.js';

/**
 * Runs one command against the configured database, migrated first if the config says so
 * (`migrate: false` for the migrate command itself, which reports what it applies).
 */
export async function withDomain<T>(
  work: (domain: Domain) => Promise<T>,
  options: { migrate: boolean } = { migrate: true },
): Promise<T> {
  const config = loadConfig();
  const store = await openStore(config.databaseUrl, config.postgres);
  try {
    if (options.migrate && config.migrateOnStart) await store.migrate();
    return await work({ store, clock: systemClock });
  } finally {
    await store.close();
  }
}
