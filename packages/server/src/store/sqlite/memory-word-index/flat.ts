import { MEMORY_TYPES, type MemoryType } from '../../../model.js';
import type { IndexedMemoryText } from './feed-types.js';
import { forEachStem } from '../../../memory-words.js';

export const TYPE_NUMBER = new Map<MemoryType, number>(MEMORY_TYPES.map((t, i) => [t, i + 1]));

/**
 * A brain's index as flat arrays, as a worker builds it and hands it over without a copy: the
 * stems, each one's postings (termStart into postDocs/postTfs), and each document's key, length,
 * type and stems (docTermStart into docTermIds).
 */
export interface FlatWords {
  terms: string[];
  termStart: Int32Array;
  postDocs: Int32Array;
  postTfs: Uint16Array;
  docKey: Float64Array;
  docLength: Float32Array;
  docType: Uint8Array;
  docTermStart: Int32Array;
  docTermIds: Int32Array;
  docTermTfs: Uint16Array;
}

export const flatBuffers = (f: FlatWords): ArrayBuffer[] =>
  [
    f.termStart,
    f.postDocs,
    f.postTfs,
    f.docKey,
    f.docLength,
    f.docType,
    f.docTermStart,
    f.docTermIds,
    f.docTermTfs,
  ].map((a) => a.buffer as ArrayBuffer);

/** The flat index of these texts (keys ascending): pure, so a worker can run it. */
export function flatWordsOf(texts: readonly IndexedMemoryText[]): FlatWords {
  const termId = new Map<string, number>();
  const termDocs: number[][] = [];
  const termTfs: number[][] = [];
  // For each stem, the last document that held it and where, so a second mention adds to it.
  let lastDoc = new Int32Array(1024).fill(-1);
  let lastAt = new Int32Array(1024);
  let lastDocTerm = new Int32Array(1024);
  const docTermStart = new Int32Array(texts.length + 1);
  const docTermIds: number[] = [];
  const docTermTfs: number[] = [];
  const docLength = new Float32Array(texts.length);
  const docType = new Uint8Array(texts.length);
  const docKey = new Float64Array(texts.length);
  texts.forEach((text, doc) => {
    let length = 0;
    forEachStem(text, (term, weight) => {
      length += weight;
      let id = termId.get(term);
      if (id === undefined) {
        id = termDocs.length;
        termId.set(term, id);
        termDocs.push([]);
        termTfs.push([]);
        if (id === lastDoc.length) {
          const grown = (a: Int32Array, fill: number) => {
            const b = new Int32Array(a.length * 2).fill(fill);
            b.set(a);
            return b;
          };
          lastDoc = grown(lastDoc, -1);
          lastAt = grown(lastAt, 0);
          lastDocTerm = grown(lastDocTerm, 0);
        }
      }
      const tfs = termTfs[id] as number[];
      if (lastDoc[id] === doc) {
        tfs[lastAt[id] as number] = (tfs[lastAt[id] as number] as number) + weight;
        docTermTfs[lastDocTerm[id] as number] = (docTermTfs[lastDocTerm[id] as number] as number) + weight;
        return;
      }
      lastDoc[id] = doc;
      lastAt[id] = tfs.length;
      lastDocTerm[id] = docTermIds.length;
      (termDocs[id] as number[]).push(doc);
      tfs.push(weight);
      docTermIds.push(id);
      docTermTfs.push(weight);
    });
    docTermStart[doc + 1] = docTermIds.length;
    docLength[doc] = length;
    docType[doc] = TYPE_NUMBER.get(text.memory_type) ?? 0;
    docKey[doc] = text.key;
  });
  const termStart = new Int32Array(termDocs.length + 1);
  termDocs.forEach((docs, i) => (termStart[i + 1] = (termStart[i] as number) + docs.length));
  const postDocs = new Int32Array(termStart[termDocs.length] as number);
  const postTfs = new Uint16Array(postDocs.length);
  termDocs.forEach((docs, i) => {
    postDocs.set(docs, termStart[i]);
    postTfs.set(termTfs[i] as number[], termStart[i]);
  });
  return {
    terms: [...termId.keys()],
    termStart,
    postDocs,
    postTfs,
    docKey,
    docLength,
    docType,
    docTermStart,
    docTermIds: Int32Array.from(docTermIds),
    docTermTfs: Uint16Array.from(docTermTfs),
  };
}
