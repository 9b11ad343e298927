import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../src/ids.js';

// Lists order by `created_at DESC, id DESC`, so within one millisecond the id alone decides:
// ids must sort in the order they were made.
describe('ids', () => {
  it('have the prefix, 10 characters of time and 16 of randomness', () => {
    assert.match(newId('snap'), /^snap_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.match(newId('edge'), /^edge_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('made in one millisecond sort in the order they were made', () => {
    const now = Date.now() + 60_000;
    // After the prefix `snap_`: 10 characters of time, then 16 of randomness.
    const ids = Array.from({ length: 5_000 }, () => newId('snap', now).slice(5));
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`);
    assert.equal(new Set(ids.map((id) => id.slice(0, 10))).size, 1, 'all carry the same millisecond');
  });

  it('keep their order when the clock steps back', () => {
    const now = Date.now() + 120_000;
    const before = newId('snap', now).slice(5);
    const after = newId('snap', now - 5_000).slice(5);
    assert.ok(before < after);
  });

  it('start a new millisecond with fresh randomness', () => {
    const now = Date.now() + 180_000;
    const first = newId('snap', now).slice(15);
    const next = newId('snap', now + 1).slice(15);
    const again = newId('snap', now + 2).slice(15);
    // Consecutive counters would differ only in their last characters.
    assert.notEqual(first.slice(0, 8), next.slice(0, 8));
    assert.notEqual(next.slice(0, 8), again.slice(0, 8));
  });
});
