import { createHash } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The id a record gets when imported into another brain: the same prefix and time part (ids
 * still sort by creation), and a random part derived from the target brain and the old id.
 * Derived, not drawn: importing the same file into the same brain again gives the same ids,
 * so a second run or a resumed one finds its rows instead of copying them, and no table of
 * old → new ids has to be held in memory for the edges of a million snapshots.
 */
export function remappedId(id: string, targetBrainId: string): string {
  const cut = id.indexOf('_');
  const prefix = id.slice(0, cut);
  const time = id.slice(cut + 1, cut + 11);
  const digest = createHash('sha256').update(`${targetBrainId}\0${id}`).digest();
  let random = '';
  // 16 characters of 5 bits: 80 bits of the digest.
  for (let i = 0; i < 16; i++) {
    const bit = i * 5;
    const byte = bit >> 3;
    const pair = ((digest[byte] ?? 0) << 8) | (digest[byte + 1] ?? 0);
    random += ALPHABET[(pair >> (11 - (bit & 7))) & 31];
  }
  return `${prefix}_${time}${random}`;
}
