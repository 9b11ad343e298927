import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalText } from '../../src/http/fast-path/decimal-text.js';

test('decimalText writes every count exactly as String does', () => {
  const counts = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1010, 9999, 10_000, 100_000, 999_999, 1_000_000];
  counts.push(1_000_000_007, 2_147_483_647, 999_999_999_999, 1_000_000_000_000, Number.MAX_SAFE_INTEGER);
  for (let n = 0; n < 3000; n++) counts.push(n, n * 1009, n * 1_000_003 + 7);
  for (const n of counts) assert.equal(decimalText(n), String(n), `decimalText(${n})`);
});

test('decimalText falls back to String for what is not a safe non-negative integer', () => {
  for (const n of [-1, 0.5, 1.5e300, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity, -0])
    assert.equal(decimalText(n), String(n));
});
