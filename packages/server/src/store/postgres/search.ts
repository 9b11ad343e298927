import type pg from 'pg';
import type {
  Contradiction,
  Evolution,
  FoundSnapshot,
  GraphEdge,
  ParsedQuery,
  SearchScope,
  SearchStore,
  ScopedSnapshot,
  TextHit,
  TextMatches,
} from '../search-store.js';
import { snapshotJson } from './snapshot-json.js';
import { porter2 } from '../../porter2.js';
import { prefixStemsFor } from '../prefix-stems.js';

/**
 * ts_rank's weights for the tsvector's labels {D, C, B, A}: name and tags (A) count 2.5× the
 * core (B), the narrative fields (C) half the core. Normalization 1 divides by 1 + log(length),
 * so long texts do not win by length alone (docs/ranking.md).
 */
export const POSTGRES_LABEL_WEIGHTS = '{0.1, 0.2, 0.4, 1.0}';
/**
 * ts_rank has no inverse document frequency, so each part of the query is ranked on its own
 * and weighted by its BM25 IDF in the brain, ln(1 + (N − df + 0.5) / (df + 0.5)): a rare word
 * counts more than a common one, as in BM25 on SQLite.
 */
const RELEVANCE = `(SELECT sum(p.idf * ts_rank('${POSTGRES_LABEL_WEIGHTS}', s.search_vector, p.query, 1)) FROM parts p)`;
/** Document frequencies are read once a minute per brain and part, not on every search. */
const FREQUENCY_TTL_MS = 60_000;

const frequencyKey = (brainId: string, part: string, cap: number | undefined) =>
  `${brainId}\u0000${part}\u0000${cap ?? ''}`;

/** The 'english' configuration stems with Snowball's English stemmer, which is Porter2. */
const prefixMisses = prefixStemsFor(porter2);

/** Each part of a query as to_tsquery text: its words are letters and digits only (parseQuery). */
export function tsqueryParts(query: ParsedQuery): string[] {
  const parts = new Set([
    ...query.terms,
    ...query.prefixes.flatMap((p) => [`${p}:*`, ...prefixMisses(p)]),
    ...query.phrases.map((words) => `(${words.join(' <-> ')})`),
  ]);
  return [...parts];
}

// $1 brain, $2 the parts' tsquery texts, $3 type or null, $4 tag or null, $5 the parts' IDFs.
const IN_SCOPE = `s.brain_id = $1 AND s.search_vector @@ q.query AND ($3::text IS NULL OR s.type = $3)
  AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(s.tags) t WHERE t = $4))`;
/**
 * The query and its parts, parsed once per statement (MATERIALIZED): inlined, to_tsquery parsed
 * and stemmed them again for every snapshot matched (memories.ts, WITH_QUERY).
 */
const QUERY = `q AS MATERIALIZED (SELECT to_tsquery('english', array_to_string($2::text[], ' | ')) AS query)`;
const PARTS = `parts AS MATERIALIZED (SELECT to_tsquery('english', u.part) AS query, u.idf
  FROM unnest($2::text[], $5::float8[]) AS u(part, idf))`;

const SQL = {
  searchTop: `WITH ${PARTS}, ${QUERY} SELECT s.id, ${RELEVANCE} AS relevance, s.created_at FROM snapshots s, q
    WHERE ${IN_SCOPE} ORDER BY relevance DESC, s.created_at DESC, s.id DESC LIMIT $6`,
  searchCount: `WITH ${QUERY} SELECT count(*)::int AS n FROM snapshots s, q WHERE ${IN_SCOPE}`,
  searchMatching: `WITH ${QUERY} SELECT s.id FROM snapshots s, q WHERE s.id = ANY($5::text[]) AND ${IN_SCOPE}`,
  searchFrequency: `SELECT count(*)::int AS n FROM snapshots WHERE brain_id = $1 AND search_vector @@ to_tsquery('english', $2)`,
  searchFrequencyUpTo: `SELECT count(*)::int AS n FROM (SELECT 1 FROM snapshots
    WHERE brain_id = $1 AND search_vector @@ to_tsquery('english', $2) LIMIT $3) f`,
  // Each part counted up to $3 (all, when null) in one statement.
  searchFrequencies: `SELECT u.part, (SELECT count(*)::int FROM (SELECT 1 FROM snapshots
      WHERE brain_id = $1 AND search_vector @@ to_tsquery('english', u.part) LIMIT $3) f) AS n
    FROM unnest($2::text[]) AS u(part)`,
  searchBrainSize: `SELECT count(*)::int AS n FROM snapshots WHERE brain_id = $1`,
  searchHolders: `SELECT id FROM snapshots WHERE brain_id = $1 AND search_vector @@ to_tsquery('english', $2) LIMIT $3`,
  searchEdgesTouching: `SELECT id, source_id, target_id, edge_type, strength FROM edges
    WHERE brain_id = $1 AND (source_id = ANY($2::text[]) OR target_id = ANY($2::text[]))
    ORDER BY strength DESC, id LIMIT $3`,
  searchEvolutionsInto: `SELECT source_id, target_id FROM edges
    WHERE brain_id = $1 AND edge_type = 'evolved_from' AND target_id = ANY($2::text[]) AND source_id = ANY($3::text[])`,
  searchInScope: `SELECT s.id, s.created_at FROM snapshots s
    WHERE s.brain_id = $1 AND s.id = ANY($2::text[]) AND ($3::text IS NULL OR s.type = $3)
      AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(s.tags) t WHERE t = $4))`,
  searchSnapshotsIn: `SELECT s.id, s.name, s.created_at, ${snapshotJson} AS json FROM snapshots s
    WHERE s.brain_id = $1 AND s.id = ANY($2::text[]) AND ($3::text IS NULL OR s.type = $3)
      AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM json_array_elements_text(s.tags) t WHERE t = $4))`,
  searchContradictionsOf: `SELECT e.source_id AS subject_id, e.target_id AS snapshot_id, o.name, e.id AS edge_id, e.strength
    FROM edges e JOIN snapshots o ON o.id = e.target_id
    WHERE e.brain_id = $1 AND e.edge_type = 'contradicts' AND e.source_id = ANY($2::text[])
    UNION ALL
    SELECT e.target_id, e.source_id, o.name, e.id, e.strength
    FROM edges e JOIN snapshots o ON o.id = e.source_id
    WHERE e.brain_id = $1 AND e.edge_type = 'contradicts' AND e.target_id = ANY($2::text[])
    ORDER BY strength DESC, edge_id`,
} as const;

/** Search on PostgreSQL: weighted tsvectors under a GIN index, ranked by ts_rank. */
export class PostgresSearchStore implements SearchStore {
  private readonly frequencies = new Map<string, { n: number; at: number }>();

  constructor(private readonly pool: pg.Pool) {}

  /**
   * How many of the brain's snapshots match `part` (or, with no part, how many it has), counted
   * up to `cap` when one is given.
   */
  private async frequency(brainId: string, part: string | undefined, cap?: number): Promise<number> {
    const key = frequencyKey(brainId, part ?? '', cap);
    const now = Date.now();
    const kept = this.frequencies.get(key);
    if (kept && now - kept.at < FREQUENCY_TTL_MS) return kept.n;
    const rows =
      part === undefined
        ? await this.rows<{ n: number }>('searchBrainSize', [brainId])
        : cap === undefined
          ? await this.rows<{ n: number }>('searchFrequency', [brainId, part])
          : await this.rows<{ n: number }>('searchFrequencyUpTo', [brainId, part, cap]);
    const n = rows[0]?.n ?? 0;
    this.keep(key, n, now);
    return n;
  }

  /**
   * frequency() of many parts, each counted up to `cap` or, without one, exactly: those not
   * counted within the minute in one statement rather than one each. The linker counts a
   * dozen words of each snapshot, then searches the rarest (bestMatchIds, exact counts): on a
   * 1 MB knowledge ingest, 6,000 statements (issue 46). Each count is read, and kept, when it
   * was read one at a time, so searches find what they found. (A count short of its cap is the
   * exact count, but kept as that it was read earlier than a search would read it, and changed
   * which candidates a later run found.)
   */
  private async countsOf(brainId: string, parts: string[], cap?: number): Promise<Map<string, number>> {
    const now = Date.now();
    const counts = new Map<string, number>();
    for (const part of parts) {
      const kept = this.frequencies.get(frequencyKey(brainId, part, cap));
      if (kept && now - kept.at < FREQUENCY_TTL_MS) counts.set(part, kept.n);
    }
    const uncounted = [...new Set(parts.filter((part) => !counts.has(part)))];
    if (uncounted.length === 0) return counts;
    const rows = await this.rows<{ part: string; n: number }>('searchFrequencies', [brainId, uncounted, cap ?? null]);
    for (const row of rows) {
      counts.set(row.part, row.n);
      this.keep(frequencyKey(brainId, row.part, cap), row.n, now);
    }
    return counts;
  }

  private keep(key: string, n: number, at: number): void {
    if (this.frequencies.size >= 100_000) this.frequencies.clear();
    this.frequencies.set(key, { n, at });
  }

  /**
   * The parts of a query with their IDFs in the brain, or undefined when nothing can match.
   * `together`: the parts' counts in one statement (the linker's searches, thousands a run),
   * rather than a statement each in parallel on the pool (a user's search, whose exact counts of
   * common words in a large brain each take a while).
   */
  private async weighted(
    brainId: string,
    query: ParsedQuery,
    together = false,
  ): Promise<[string[], number[]] | undefined> {
    const parts = tsqueryParts(query);
    if (parts.length === 0) return undefined;
    const [size, counts] = await Promise.all([
      this.frequency(brainId, undefined),
      together
        ? this.countsOf(brainId, parts).then((found) => parts.map((part) => found.get(part) ?? 0))
        : Promise.all(parts.map((part) => this.frequency(brainId, part))),
    ]);
    // Counts are read at different times: the brain holds at least as many as match any part.
    const idfs = counts.map((df) => Math.log(1 + (Math.max(size, df) - df + 0.5) / (df + 0.5)));
    return [parts, idfs];
  }

  private async rows<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[]): Promise<R[]> {
    return (await this.pool.query<R>({ name, text: SQL[name], values })).rows;
  }

  async textMatches(scope: SearchScope, query: ParsedQuery, limit: number): Promise<TextMatches> {
    const weighted = await this.weighted(scope.brainId, query);
    if (weighted === undefined) return { hits: [], total: 0, matching: async () => new Set<string>() };
    const [parts, idfs] = weighted;
    const values = [scope.brainId, parts, scope.type ?? null, scope.tag ?? null];
    const [hits, counted] = await Promise.all([
      this.rows<TextHit>('searchTop', [...values, idfs, limit]),
      this.rows<{ n: number }>('searchCount', values),
    ]);
    const total = counted[0]?.n ?? 0;
    const known = new Set(hits.map((hit) => hit.id));
    return {
      hits,
      total,
      // Deeper matches are asked for by id, only for the few snapshots the graph reaches.
      matching: async (ids) => {
        const found = new Set(ids.filter((id) => known.has(id)));
        const unknown = total > hits.length ? ids.filter((id) => !known.has(id)) : [];
        if (unknown.length > 0) {
          for (const row of await this.rows<{ id: string }>('searchMatching', [...values, unknown])) found.add(row.id);
        }
        return found;
      },
    };
  }

  async bestMatchIds(brainId: string, query: ParsedQuery, limit: number): Promise<string[]> {
    const weighted = await this.weighted(brainId, query, true);
    if (weighted === undefined) return [];
    const [parts, idfs] = weighted;
    const hits = await this.rows<TextHit>('searchTop', [brainId, parts, null, null, idfs, limit]);
    return hits.map((hit) => hit.id);
  }

  async holdersOf(brainId: string, words: string[], cap: number): Promise<string[]> {
    if (words.length === 0) return [];
    const phrase = tsqueryParts({ terms: [], prefixes: [], phrases: [words] })[0] as string;
    return (await this.rows<{ id: string }>('searchHolders', [brainId, phrase, cap])).map((row) => row.id);
  }

  async documentFrequencies(brainId: string, words: string[], cap: number): Promise<Map<string, number>> {
    const counts = words.length === 0 ? new Map<string, number>() : await this.countsOf(brainId, words, cap);
    return new Map(words.map((word) => [word, counts.get(word) ?? 0]));
  }

  async edgesTouching(brainId: string, ids: string[], limit: number) {
    if (ids.length === 0) return [];
    return this.rows<GraphEdge>('searchEdgesTouching', [brainId, ids, limit]);
  }

  async snapshotsIn(scope: SearchScope, ids: string[]) {
    if (ids.length === 0) return [];
    return this.rows<FoundSnapshot>('searchSnapshotsIn', [scope.brainId, ids, scope.type ?? null, scope.tag ?? null]);
  }

  async inScope(scope: SearchScope, ids: string[]) {
    if (ids.length === 0) return [];
    return this.rows<ScopedSnapshot>('searchInScope', [scope.brainId, ids, scope.type ?? null, scope.tag ?? null]);
  }

  async evolutionsInto(brainId: string, older: string[], newer: string[]) {
    if (older.length === 0 || newer.length === 0) return [];
    return this.rows<Evolution>('searchEvolutionsInto', [brainId, older, newer]);
  }

  async contradictionsOf(brainId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return this.rows<Contradiction>('searchContradictionsOf', [brainId, ids]);
  }
}
