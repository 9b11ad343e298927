/**
 * Posting lists in compact form: for each term, the documents holding it in ascending order,
 * each with its weighted frequency and the document's length, in blocks of BLOCK postings.
 * Within a block each posting is three varints (the gap from the previous document, the
 * frequency, the length), so a block decodes on its own from the last document of the block
 * before it; a block table gives each block's byte offset and last document, for finding one
 * document without decoding the whole list.
 *
 * Why the length in every posting: bm25 needs each matching document's length, and reading it
 * from an array by document cost ~28 ns a posting at 1,000,000 snapshots (a cache miss each,
 * 45% of a ranking); in the posting it is read in sequence, for about a byte more.
 *
 * Why varints and not plain typed arrays: at 1,000,000 snapshots of the benchmark's text there
 * are 38.8 million postings, 233 MB as an Int32 document and a Uint16 frequency each, against
 * 3.17 bytes a posting this way, 117 MiB (docs/performance.md, "The in-memory text index").
 */
export const BLOCK = 128;

export interface Postings {
  /** Every term's postings, term after term. */
  bytes: Uint8Array;
  /** Byte offset where each block starts; one more entry than blocks (the end). */
  blockOffset: Uint32Array;
  /** The last (highest) document of each block. */
  blockLast: Int32Array;
  /** Each term's first block; one more entry than terms (the end). */
  termBlock: Uint32Array;
  /** How many postings each term has. */
  termCount: Uint32Array;
}

/** Builds Postings term by term; each term's documents must be added in ascending order. */
export class PostingsWriter {
  private bytes = new Uint8Array(1 << 16);
  private length = 0;
  private blockOffset = new Uint32Array(1024);
  private blockLast = new Int32Array(1024);
  private blocks = 0;
  private termBlock: number[] = [0];
  private termCount: number[] = [];
  private inBlock = 0;
  private previous = -1;
  private count = 0;

  /** Adds one posting of the current term: a document, its weighted frequency, its length. */
  add(doc: number, frequency: number, length: number): void {
    if (this.inBlock === BLOCK) this.closeBlock();
    if (this.inBlock === 0) this.openBlock();
    this.reserve(15);
    this.writeVarint(doc - this.previous);
    this.writeVarint(frequency);
    this.writeVarint(length);
    this.previous = doc;
    this.inBlock++;
    this.count++;
  }

  /** Ends the current term (which may have no postings) and starts the next. */
  endTerm(): void {
    if (this.inBlock > 0) this.closeBlock();
    this.termBlock.push(this.blocks);
    this.termCount.push(this.count);
    this.count = 0;
    this.previous = -1;
  }

  finish(): Postings {
    const blockOffset = new Uint32Array(this.blocks + 1);
    blockOffset.set(this.blockOffset.subarray(0, this.blocks));
    blockOffset[this.blocks] = this.length;
    return {
      bytes: this.bytes.slice(0, this.length),
      blockOffset,
      blockLast: this.blockLast.slice(0, this.blocks),
      termBlock: Uint32Array.from(this.termBlock),
      termCount: Uint32Array.from(this.termCount),
    };
  }

  private openBlock(): void {
    if (this.blocks === this.blockOffset.length) {
      this.blockOffset = grown(this.blockOffset, Uint32Array);
      this.blockLast = grown(this.blockLast, Int32Array);
    }
    this.blockOffset[this.blocks] = this.length;
  }

  private closeBlock(): void {
    this.blockLast[this.blocks++] = this.previous;
    this.inBlock = 0;
  }

  private reserve(n: number): void {
    if (this.length + n > this.bytes.length) this.bytes = grown(this.bytes, Uint8Array);
  }

  private writeVarint(value: number): void {
    while (value > 127) {
      this.bytes[this.length++] = (value & 127) | 128;
      value >>>= 7;
    }
    this.bytes[this.length++] = value;
  }
}

/** Where decoded postings go: documents, weighted frequencies and lengths, side by side. */
export interface Decoded {
  docs: Int32Array;
  frequencies: Uint32Array;
  lengths: Uint32Array;
}

/**
 * Decodes block `b` of `term` into `into` from index `at` (with room for BLOCK more); returns
 * how many postings it holds.
 */
export function decodeBlock(postings: Postings, term: number, b: number, into: Decoded, at = 0): number {
  const { docs, frequencies, lengths } = into;
  const { bytes, blockOffset } = postings;
  let doc = b === postings.termBlock[term] ? -1 : (postings.blockLast[b - 1] as number);
  let read = blockOffset[b] as number;
  const end = blockOffset[b + 1] as number;
  let n = at;
  while (read < end) {
    let byte = bytes[read++] as number;
    let gap = byte & 127;
    for (let shift = 7; byte > 127; shift += 7) {
      byte = bytes[read++] as number;
      gap |= (byte & 127) << shift;
    }
    byte = bytes[read++] as number;
    let frequency = byte & 127;
    for (let shift = 7; byte > 127; shift += 7) {
      byte = bytes[read++] as number;
      frequency |= (byte & 127) << shift;
    }
    byte = bytes[read++] as number;
    let length = byte & 127;
    for (let shift = 7; byte > 127; shift += 7) {
      byte = bytes[read++] as number;
      length |= (byte & 127) << shift;
    }
    doc += gap;
    docs[n] = doc;
    lengths[n] = length;
    frequencies[n++] = frequency;
  }
  return n - at;
}

/** The frequency of `doc` in `term`'s list, or 0 when the list does not hold it (`scratch`: room for a block). */
export function frequencyIn(postings: Postings, term: number, doc: number, scratch: Decoded) {
  let low = postings.termBlock[term] as number;
  let high = (postings.termBlock[term + 1] as number) - 1;
  if (high < low || (postings.blockLast[high] as number) < doc) return 0;
  // The first block whose last document is at least `doc`.
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((postings.blockLast[mid] as number) < doc) low = mid + 1;
    else high = mid;
  }
  const n = decodeBlock(postings, term, low, scratch);
  for (let i = 0; i < n; i++) if (scratch.docs[i] === doc) return scratch.frequencies[i] as number;
  return 0;
}

type Growable = Uint8Array | Uint32Array | Int32Array;
function grown<T extends Growable>(array: T, Kind: new (length: number) => T): T {
  const bigger = new Kind(array.length * 2);
  bigger.set(array as never);
  return bigger;
}
