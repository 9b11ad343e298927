/**
 * FTS5's bm25(), as `fts5Bm25Function` in SQLite's fts5_aux.c computes it, so that the index of
 * our own ranks exactly as FTS5 does (the same scores, bit for bit: each phrase's part is added in
 * the query's order, as there). Per phrase: idf × f(k1 + 1) / (f + k1(1 − b + b·D/avgdl)), where
 * f is the phrase's frequency in the row with each column's weight, D the row's length in tokens
 * (every column, unweighted) and avgdl the average length; idf = ln((N − n + 0.5) / (n + 0.5)),
 * 1e-6 when that is not positive, n being the rows holding the phrase.
 *
 * N and the average come from FTS5's own "averages" record (decodeStatistics), not from the live
 * rows: in a contentless_delete table a delete does not subtract from them (measured: 50 rows
 * inserted, 10 deleted and 10 replaced leave N at 60), while n counts live rows only. Reading
 * the record keeps the ranking FTS5's whatever FTS5 does with it.
 */
export const K1 = 1.2;
export const B = 0.75;

/**
 * BM25 field weights, in the index's column order (search-index-sql.ts): a word in the name or a
 * tag counts 3× and 2× one in the core, and a word in a narrative field half. Tuned on
 * ../shared/search-eval (docs/ranking.md).
 */
export const SQLITE_FIELD_WEIGHTS = { name: 3, tags: 2, core: 1, body: 0.5 } as const;

/** Each column's weight doubled, so that weighted frequencies are integers (kept as such). */
export const DOUBLED_WEIGHTS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(SQLITE_FIELD_WEIGHTS).map(([column, weight]) => [column, weight * 2]),
);

export function inverseDocumentFrequency(rows: number, holding: number): number {
  const idf = Math.log((rows - holding + 0.5) / (holding + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** One phrase's part of a row's score; `doubled` is its weighted frequency × 2. */
export const phraseScore = (idf: number, doubled: number, norm: number): number => {
  const f = doubled / 2;
  return idf * ((f * (K1 + 1.0)) / (f + norm));
};

/** The length part of the denominator, the same for every phrase of a row. */
export const lengthNorm = (length: number, averageLength: number): number =>
  K1 * (1 - B + (B * length) / averageLength);

/** The table's row count and total tokens as bm25 sees them. */
export interface FtsStatistics {
  rows: number;
  tokens: number;
}

/** Reads FTS5's averages record (`%_data` id 1): varints of the row count, then each column's tokens. */
export const FTS_STATISTICS_SQL = 'SELECT block FROM snapshot_search_data WHERE id = 1';

export function decodeStatistics(block: Uint8Array | undefined): FtsStatistics {
  const [rows = 0, ...columns] = block === undefined ? [] : sqliteVarints(block);
  return { rows, tokens: columns.reduce((sum, n) => sum + n, 0) };
}

/** FTS5's size record of each row (`%_docsize`): varints of each column's tokens. */
export const FTS_ROW_SIZES_SQL = 'SELECT id, sz FROM snapshot_search_docsize';

/** A row's length in tokens, every column, from its size record. */
export const rowLength = (sizes: Uint8Array): number => sqliteVarints(sizes).reduce((sum, n) => sum + n, 0);

/** SQLite's varints, as FTS5 writes its records: big-endian groups of 7 bits, the high bit set on all but the last; a 9th byte holds 8. */
function sqliteVarints(block: Uint8Array): number[] {
  const values: number[] = [];
  for (let at = 0; at < block.length;) {
    let value = 0;
    for (let i = 0; ; i++) {
      const byte = block[at++] as number;
      if (i === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 127);
      if (byte < 128) break;
    }
    values.push(value);
  }
  return values;
}
