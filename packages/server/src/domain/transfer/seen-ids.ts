/**
 * Snapshot ids seen in a file, for checking that every edge joins two of them. Held as 53-bit
 * hashes (two FNV-1a hashes of the id): a million ids take about 40 MB instead of the 100 MB of a
 * set of strings. A collision could only let one dangling reference through, which the
 * database's foreign keys would still refuse.
 */
export class SeenIds {
  private readonly hashes = new Set<number>();

  add(id: string): void {
    this.hashes.add(hash53(id));
  }

  has(id: string): boolean {
    return this.hashes.has(hash53(id));
  }
}

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
