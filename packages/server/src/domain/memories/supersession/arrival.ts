import { setImmediate } from 'node:timers/promises';
import type { Memory } from '../../../model.js';
import type { Domain } from '../../context.js';
import { parseQuery, isEmptyQuery } from '../../search/query.js';
import { nextUpdatedAt } from '../../validate.js';
import { judgeByLlm } from './llm.js';
import { STATEMENT_MAX_CHARS, supersedesByRules } from './rules.js';
import { statementOf } from './statement.js';

/** The earlier memories a newcomer is compared with: the brain's best text matches of its subject. */
const CANDIDATES = 20;

/** Which of two memories is the newer: the later occurred_at; on a tie, the later to arrive. */
export const occursAfter = (a: Memory, b: Memory): boolean =>
  a.occurred_at > b.occurred_at ||
  (a.occurred_at === b.occurred_at && (a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)));

/**
 * Design §6.1: after `arrived` was stored (created, imported, extracted by ingest), the memories
 * of its brain it replaces name it, and it names the memory that replaces it. Which is newer is
 * decided by occurred_at, so a history loaded out of order leaves its latest value current:
 * the older matches that were current when it occurred now point to it, and it points to the
 * earliest match that occurred after it. Returns the memory as stored after that.
 */
export async function settleArrival(domain: Domain, accountId: string, arrived: Memory): Promise<Memory> {
  const matches = await matchesOf(domain, arrived);
  if (matches.length === 0) return arrived;
  const now = domain.clock.now();
  const memories = domain.store.memories;
  const newer = matches.filter((m) => occursAfter(m, arrived)).sort((a, b) => (occursAfter(a, b) ? 1 : -1));
  for (const older of matches.filter((m) => !occursAfter(m, arrived))) {
    // Replaced already by something that occurred no later than the newcomer: that one is the newer version.
    if (older.superseded_at !== null && older.superseded_at <= arrived.occurred_at) continue;
    await memories.update(accountId, older.id, (current) => ({
      ...current,
      superseded_by: arrived.id,
      superseded_at: arrived.occurred_at,
      updated_at: nextUpdatedAt(current.updated_at, now),
    }));
  }
  const next = newer[0];
  if (!next) return arrived;
  const settled = await memories.update(accountId, arrived.id, (current) => ({
    ...current,
    superseded_by: next.id,
    superseded_at: next.occurred_at,
    updated_at: nextUpdatedAt(current.updated_at, now),
  }));
  return settled ?? arrived;
}

/**
 * Settles each arrival in turn, oldest first (ingest and import bring several at once), a turn
 * of the event loop after each: SQLite answers a search synchronously, and a memory that
 * replaces nothing writes nothing, so without one the 9,700 searches of a 1 MB ingest's
 * memories (each over its whole brain) held the loop for minutes (docs/performance.md, "Large
 * writes beside small ones").
 */
export async function settleArrivals(domain: Domain, accountId: string, arrived: Memory[]): Promise<Memory[]> {
  const settled = new Map<string, Memory>();
  for (const memory of [...arrived].sort((a, b) => (occursAfter(a, b) ? 1 : -1))) {
    await setImmediate();
    settled.set(memory.id, await settleArrival(domain, accountId, memory));
  }
  return arrived.map((m) => settled.get(m.id) ?? m);
}

/**
 * The brain's memories that state the same thing as `arrived` with another value: by the LLM
 * when one is configured (the rules decide when it fails), by the rules otherwise.
 */
async function matchesOf(domain: Domain, arrived: Memory): Promise<Memory[]> {
  if (arrived.content.length > STATEMENT_MAX_CHARS && !domain.llm) return [];
  const own = statementOf(arrived.content);
  const query = parseQuery(arrived.content);
  if (isEmptyQuery(query)) return [];
  const found = await domain.store.memories.search({
    brainId: arrived.brain_id,
    query,
    limit: CANDIDATES + 1,
    uncounted: true,
  });
  const candidates = found.hits.map((h) => h.memory).filter((m) => m.id !== arrived.id);
  if (candidates.length === 0) return [];
  const read = (m: Pick<Memory, 'content'>) => (m.content === arrived.content ? own : statementOf(m.content));
  const byRules = () =>
    candidates.filter((other) =>
      occursAfter(other, arrived) ? supersedesByRules(arrived, other, read) : supersedesByRules(other, arrived, read),
    );
  if (!domain.llm) return byRules();
  return (await judgeByLlm(domain.llm, arrived, candidates).catch(() => undefined)) ?? byRules();
}
