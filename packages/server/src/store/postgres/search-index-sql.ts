import { NARRATIVE_COLUMNS } from '../searched-columns.js';

/**
 * The full-text index of snapshots on PostgreSQL: a generated tsvector column, so it is
 * maintained in the writing statement itself (searchable as soon as the write is acknowledged),
 * with a GIN index. Weights follow design §8.3: name and tags (A) above core and one_liner (B)
 * above the narrative fields (C). The 'english' configuration stems and drops stop words.
 */

const text = (columns: readonly string[]) => columns.map((c) => `coalesce(${c}, '')`).join(` || ' ' || `);

export const SEARCH_INDEX_SQL = `
  ALTER TABLE snapshots ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', name), 'A') ||
    setweight(to_tsvector('english', tags::text), 'A') ||
    setweight(to_tsvector('english', ${text(['core', 'one_liner'])}), 'B') ||
    setweight(to_tsvector('english', ${text(NARRATIVE_COLUMNS)}), 'C')
  ) STORED;
  CREATE INDEX snapshots_search ON snapshots USING gin (search_vector);
`;
