import { endianness } from 'node:os';
import { bufferToVector } from '../../providers/index.js';

/** Stored vectors are little-endian float32: on such a machine (all we run on) their bytes are copied as they are. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** A brain's vectors of one kind and model, as one matrix (rows are unit length, so dot = cosine). */
export interface VectorMatrix {
  ids: string[];
  rowOf: Map<string, number>;
  matrix: Float32Array;
  dimension: number;
}

/**
 * Roughly what one row costs besides its floats: the id string and its entry in `rowOf`.
 * An estimate, measured with bench/vectors.mjs (a 31-character id in a Map is about 100 bytes).
 */
const BYTES_PER_ID = 120;

/** The stored rows as a matrix; rows of another dimension than the first (a changed model) are left out. */
export function matrixOf(rows: { id: string; vector: Buffer }[]): VectorMatrix {
  const dimension = rows[0] ? rows[0].vector.byteLength / 4 : 0;
  const usable = rows.filter((row) => row.vector.byteLength === dimension * 4);
  const matrix = new Float32Array(usable.length * dimension);
  const bytes = new Uint8Array(matrix.buffer);
  usable.forEach((row, i) => {
    if (LITTLE_ENDIAN) bytes.set(row.vector, i * dimension * 4);
    else matrix.set(bufferToVector(row.vector), i * dimension);
  });
  const ids = usable.map((row) => row.id);
  return { ids, rowOf: new Map(ids.map((id, i) => [id, i])), matrix, dimension };
}

/** What a matrix holds in memory, for the budget (VECTOR_CACHE_MB). */
export function matrixBytes(m: VectorMatrix): number {
  return m.matrix.byteLength + m.ids.length * BYTES_PER_ID;
}

/** The dot product of a row with a vector of the matrix's dimension. */
export function dotRow(m: VectorMatrix, row: number, vector: Float32Array): number {
  const d = m.dimension;
  const offset = row * d;
  let sum = 0;
  for (let i = 0; i < d; i++) sum += (m.matrix[offset + i] as number) * (vector[i] as number);
  return sum;
}

/** Every row's similarity to `vector` (zeros when the dimensions differ): one pass, the exact search. */
export function scoreAll(m: VectorMatrix, vector: Float32Array): Float32Array {
  const scores = new Float32Array(m.ids.length);
  if (vector.length !== m.dimension) return scores;
  for (let row = 0; row < m.ids.length; row++) scores[row] = dotRow(m, row, vector);
  return scores;
}
