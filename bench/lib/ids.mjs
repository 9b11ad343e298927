// Snapgraph-shaped ids for seeding and for the baselines: a prefix, 10 Crockford base32
// characters of milliseconds since the epoch, then 16 characters (80 bits) of randomness.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const POOL_SIZE = 16 * 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

export function encodeTime(ms) {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function randomPart() {
  if (offset + 16 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  // One byte per character (its low 5 bits): 80 random bits, as cheap as it gets.
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[pool[offset + i] & 31];
  offset += 16;
  return out;
}

/** `snap_…`, `edge_…`: time-ordered when `ms` increases. */
export function newId(prefix, ms = Date.now()) {
  return `${prefix}_${encodeTime(ms)}${randomPart()}`;
}

/** ISO 8601 with milliseconds, as Snapgraph stores timestamps. */
export const isoTime = (ms) => new Date(ms).toISOString();
