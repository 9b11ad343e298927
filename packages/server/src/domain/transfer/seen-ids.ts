/**
 * Record ids seen in a file, for checking that every reference names one of them. Held as 53-bit
 * hashes (two FNV-1a hashes of the id) in an open-addressing table over a Float64Array: 16 MB
 * for a million ids. (A Set of the same numbers took about 40 bytes an id, each hash a heap
 * number, and its growth pushed the import's peak RSS past 300 MB at a million snapshots.) A
 * collision (even one made on purpose) lets at most a reference to nothing through: a file whose
 * references name any row of this server gets new ids for all its records (target.ts), and those
 * name nothing outside its new brain.
 */
export class SeenIds {
  /** Each hash + 1, so that 0 marks an empty slot; at most half full, so probes stay short. */
  private slots = new Float64Array(1 << 16);
  private size = 0;

  add(id: string): void {
    if (2 * (this.size + 1) > this.slots.length) this.grow();
    if (insert(this.slots, hash53(id) + 1)) this.size++;
  }

  has(id: string): boolean {
    const slots = this.slots;
    const key = hash53(id) + 1;
    const mask = slots.length - 1;
    for (let i = firstSlot(key, mask); slots[i] !== 0; i = (i + 1) & mask) {
      if (slots[i] === key) return true;
    }
    return false;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const key of old) if (key !== 0) insert(this.slots, key);
  }
}

/** Puts `key` in the first free slot of its probe sequence; false if it was there already. */
function insert(slots: Float64Array, key: number): boolean {
  const mask = slots.length - 1;
  let i = firstSlot(key, mask);
  for (; slots[i] !== 0; i = (i + 1) & mask) if (slots[i] === key) return false;
  slots[i] = key;
  return true;
}

/** The key's low 32 bits (ToUint32 is exact modulo 2^32 for integers) pick its first slot. */
const firstSlot = (key: number, mask: number) => (key >>> 0) & mask;

function hash53(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (b >>> 11) * 0x100000000 + (a >>> 0);
}
