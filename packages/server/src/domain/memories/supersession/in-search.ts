import type { Memory } from '../../../model.js';
import type { MemorySearch } from '../../../store/memory-store.js';
import type { Domain } from '../../context.js';
import { asItStood } from './versions.js';

/** Links followed from a superseded result to the version current now (or at as_of). */
const MAX_HOPS = 20;

type Ranked = Memory & { score: number; similarity: string };

/**
 * Design §6.1 in search: a superseded memory that matches ranks just below the version that
 * replaced it, and that version is brought in though it shares fewer of the query's words —
 * an agent asking "what is the launch date?" gets the date that holds first. The current
 * version is the last of the chain that passes the search's filters (as_of included). Scores
 * stay in order: the version brought up takes the score of the one it replaced.
 */
export async function currentVersionsFirst(
  domain: Domain,
  accountId: string,
  search: Omit<MemorySearch, 'limit'>,
  asOf: string | undefined,
  results: Ranked[],
  limit: number,
): Promise<{ data: Ranked[]; broughtIn: number }> {
  const shown = results.map((r) => asItStood(r, asOf));
  if (!shown.some((r) => r.superseded_by !== null)) return { data: shown.slice(0, limit), broughtIn: 0 };
  const heads = await currentOf(domain, accountId, search, asOf, shown);
  const placed = new Set<string>();
  const data: Ranked[] = [];
  let broughtIn = 0;
  for (const result of shown) {
    const head = heads.get(result.id);
    if (head && !placed.has(head.memory.id)) {
      const ranked = shown.find((r) => r.id === head.memory.id);
      data.push({ ...(ranked ?? asItStood(head.memory, asOf)), score: result.score, similarity: result.similarity });
      placed.add(head.memory.id);
      if (!ranked && !head.matchesText) broughtIn++;
    }
    if (placed.has(result.id)) continue;
    data.push(result);
    placed.add(result.id);
  }
  // Scores never rise down the list.
  for (let i = 1; i < data.length; i++) {
    const above = data[i - 1] as Ranked;
    const here = data[i] as Ranked;
    if (here.score > above.score) data[i] = { ...here, score: above.score, similarity: above.similarity };
  }
  return { data: data.slice(0, limit), broughtIn };
}

/** For each superseded result, the current version of its chain that the search's filters let in. */
async function currentOf(
  domain: Domain,
  accountId: string,
  search: Omit<MemorySearch, 'limit'>,
  asOf: string | undefined,
  results: Memory[],
): Promise<Map<string, { memory: Memory; matchesText: boolean }>> {
  const store = domain.store.memories;
  const known = new Map<string, Memory>(results.map((r) => [r.id, r]));
  const lastOf = new Map<string, Memory>();
  for (const result of results) {
    let at: Memory = result;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const stood = asItStood(at, asOf);
      if (stood.superseded_by === null) break;
      const next = known.get(stood.superseded_by) ?? (await store.get(accountId, stood.superseded_by));
      if (!next || next.brain_id !== result.brain_id) break;
      known.set(next.id, next);
      at = next;
    }
    if (at !== result) lastOf.set(result.id, at);
  }
  const ids = [...new Set([...lastOf.values()].map((m) => m.id))];
  const admitted = new Map((await store.among(search, ids)).map((a) => [a.memory.id, a]));
  const heads = new Map<string, { memory: Memory; matchesText: boolean }>();
  for (const [id, last] of lastOf) {
    const entry = admitted.get(last.id);
    if (entry) heads.set(id, entry);
  }
  return heads;
}
