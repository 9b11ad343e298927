import { randomBytes } from 'node:crypto';

/**
 * Identifiers: a type prefix, then a time-ordered, URL-safe part — 10 Crockford base32
 * characters of milliseconds since the epoch followed by 16 characters (80 bits) of
 * randomness. Ids sort by creation time, which keeps B-tree inserts local and makes
 * `id DESC` a stable tie-breaker after `created_at DESC`.
 */

export const ID_PREFIXES = [
  'snap',
  'edge',
  'brain',
  'acct',
  'key',
  'mem',
  'doc',
  'cry',
  'cap',
  'src',
  'ske',
  'ing',
  'job',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_BYTES = 10; // 80 bits -> 16 base32 characters

// Drawing randomness in bulk is an order of magnitude cheaper than one syscall per id.
const POOL_SIZE = RANDOM_BYTES * 512;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function nextRandomChunk(): Buffer {
  if (poolOffset + RANDOM_BYTES > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const chunk = pool.subarray(poolOffset, poolOffset + RANDOM_BYTES);
  poolOffset += RANDOM_BYTES;
  return chunk;
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  // 80 bits = 16 groups of 5 bits, read big-endian across the 10 bytes.
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

// The last id's time and random part: an id made in the same millisecond as the one before it
// (or after the clock stepped back) continues from it, its random part plus one, so ids made
// by one process sort in the order they were made. Lists order by `created_at DESC, id DESC`,
// and snapshots created within one millisecond (a group-committed batch) would otherwise
// list in a random order among themselves. The first id of each millisecond keeps all 80
// random bits; its successors are guessable from it, which gives nothing away, as an id is
// no credential (every read checks the caller's account).
let lastTime = -1;
const lastRandom = Buffer.alloc(RANDOM_BYTES);

/** Adds one to the big-endian number in `bytes`; false if it wrapped around to zero. */
function increment(bytes: Buffer): boolean {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const byte = bytes[i]!;
    if (byte !== 0xff) {
      bytes[i] = byte + 1;
      return true;
    }
    bytes[i] = 0;
  }
  return false;
}

export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    nextRandomChunk().copy(lastRandom);
  } else if (!increment(lastRandom)) {
    // 2^80 ids in one millisecond: never in practice, but the order would still hold.
    lastTime++;
    nextRandomChunk().copy(lastRandom);
  }
  return `${prefix}_${encodeTime(lastTime)}${encodeRandom(lastRandom)}`;
}

/** Whether the id is one of `prefix`'s (the queue's embed tasks hold snapshots' and memories'). */
export const isIdOf = (prefix: IdPrefix, id: string): boolean => id.startsWith(`${prefix}_`);
