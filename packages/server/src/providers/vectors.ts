/**
 * Vectors as Float32Array, the form they are compared in and stored in: both databases keep one
 * as its raw bytes (SQLite BLOB, PostgreSQL bytea), little-endian float32, 4 bytes a number.
 */

const FLOAT_BYTES = 4;

/** A unit-length copy, so that the dot product of two is their cosine. A zero vector stays zero. */
export function l2Normalize(vector: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) ** 2;
  const norm = Math.sqrt(sum);
  const unit = new Float32Array(vector.length);
  if (norm === 0) return unit;
  for (let i = 0; i < vector.length; i++) unit[i] = (vector[i] as number) / norm;
  return unit;
}

export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`vectors differ in dimension: ${a.length} and ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/**
 * Cosine similarity of two unit-length vectors (see l2Normalize): their dot product, clamped to
 * [-1, 1] because float32 rounding can overshoot by a few ulps.
 */
export function cosineOfNormalized(a: Float32Array, b: Float32Array): number {
  return Math.min(1, Math.max(-1, dot(a, b)));
}

/** The bytes to store: little-endian whatever the machine, so a database moves between hosts. */
export function vectorToBuffer(vector: Float32Array): Buffer {
  const buffer = Buffer.allocUnsafe(vector.length * FLOAT_BYTES);
  for (let i = 0; i < vector.length; i++) buffer.writeFloatLE(vector[i] as number, i * FLOAT_BYTES);
  return buffer;
}

/** Back from stored bytes; copies, so the vector does not alias a driver's reused buffer. */
export function bufferToVector(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % FLOAT_BYTES !== 0) {
    throw new RangeError(`a stored vector has ${bytes.byteLength} bytes, not a multiple of ${FLOAT_BYTES}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(bytes.byteLength / FLOAT_BYTES);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * FLOAT_BYTES, true);
  return vector;
}
