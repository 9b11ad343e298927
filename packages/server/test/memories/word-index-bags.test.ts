// A memory's bag as the word index hands it to ranking (store/sqlite/memory-word-index/): for a
// memory of a base built in one piece (a worker's build), read in place from the flat arrays;
// it holds the same stems, counts and order as a bag made from the memory's text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bagOf } from '../../src/memory-words.js';
import { BrainWords } from '../../src/store/sqlite/memory-word-index/brain-words.js';
import { flatWordsOf } from '../../src/store/sqlite/memory-word-index/flat.js';
import type { IndexedMemoryText } from '../../src/store/sqlite/memory-word-index/feed-types.js';

const texts: IndexedMemoryText[] = [
  {
    key: 3,
    memory_type: 'fact',
    content: 'The lantern lit the harbour; lanterns glow.',
    speaker: 'Ada',
    tags: ['harbour'],
  },
  { key: 5, memory_type: 'event', content: 'Violins and an orchard, the orchard again', speaker: null, tags: [] },
  { key: 9, memory_type: 'fact', content: 'and the of', speaker: null, tags: [] },
  { key: 12, memory_type: 'story', content: 'Copper falcon over the meadow', speaker: 'Ben', tags: ['falcon', 'x y'] },
];

describe("the word index's bags", () => {
  it('of a base memory: the stems, counts and order of its text, and its length', () => {
    const words = new BrainWords(0, 100, flatWordsOf(texts));
    for (const text of texts) {
      const bag = words.bagOfKey(text.key);
      const want = bagOf(text, false);
      assert.ok(bag, String(text.key));
      assert.deepEqual([...bag.counts], [...want.counts]);
      assert.deepEqual([...bag.counts.keys()], [...want.counts.keys()]);
      assert.deepEqual([...bag.counts.values()], [...want.counts.values()]);
      assert.equal(bag.counts.size, want.counts.size);
      assert.equal(bag.length, want.length);
      for (const [stem, count] of want.counts) {
        assert.equal(bag.counts.get(stem), count);
        assert.equal(bag.counts.has(stem), true);
      }
      for (const other of ['meadow', 'orchard', 'lantern', 'nowhere']) {
        assert.equal(bag.counts.get(other), want.counts.get(other), other);
        assert.equal(bag.counts.has(other), want.counts.has(other), other);
      }
      const seen: [string, number][] = [];
      bag.counts.forEach((count, stem) => seen.push([stem, count]));
      assert.deepEqual(seen, [...want.counts]);
    }
  });

  it('of a memory put since the base, and none for one removed', () => {
    const words = new BrainWords(0, 100, flatWordsOf(texts));
    const added: IndexedMemoryText = {
      key: 20,
      memory_type: 'fact',
      content: 'a glacier of pepper',
      speaker: null,
      tags: [],
    };
    words.put(added);
    assert.deepEqual([...(words.bagOfKey(20)?.counts ?? [])], [...bagOf(added, false).counts]);
    words.remove(5);
    assert.equal(words.bagOfKey(5), undefined);
    // A base memory put again is read from its new text.
    words.put({ ...(texts[0] as IndexedMemoryText), content: 'meadow' });
    assert.deepEqual(
      [...(words.bagOfKey(3)?.counts ?? [])],
      [...bagOf({ ...(texts[0] as IndexedMemoryText), content: 'meadow' }, false).counts],
    );
  });
});
