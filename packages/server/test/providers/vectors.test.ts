// Vectors are compared as unit Float32Arrays and stored as little-endian float32 bytes in both
// databases: these are the conversions every stored vector goes through.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bufferToVector, cosineOfNormalized, dot, l2Normalize, vectorToBuffer } from '../../src/providers/index.js';

describe('vectors', () => {
  describe('l2Normalize', () => {
    it('gives a unit vector pointing the same way', () => {
      assert.deepEqual([...l2Normalize([3, 4])], [Math.fround(0.6), Math.fround(0.8)]);
      const unit = l2Normalize([1, -2, 3, -4, 5]);
      assert.ok(Math.abs(Math.hypot(...unit) - 1) < 1e-6);
      assert.ok(unit[0]! > 0 && unit[1]! < 0, 'signs kept');
    });

    it('leaves a zero vector zero instead of dividing by zero', () => {
      assert.deepEqual([...l2Normalize([0, 0, 0])], [0, 0, 0]);
    });

    it('returns a copy, leaving its input alone', () => {
      const input = new Float32Array([2, 0]);
      l2Normalize(input);
      assert.deepEqual([...input], [2, 0]);
    });
  });

  describe('dot and cosine of unit vectors', () => {
    it('is 1 for the same direction, 0 for orthogonal, -1 for opposite', () => {
      const a = l2Normalize([1, 1]);
      assert.ok(Math.abs(cosineOfNormalized(a, l2Normalize([5, 5])) - 1) < 1e-6);
      assert.equal(cosineOfNormalized(l2Normalize([1, 0]), l2Normalize([0, 3])), 0);
      assert.ok(Math.abs(cosineOfNormalized(a, l2Normalize([-2, -2])) + 1) < 1e-6);
    });

    it('cosine stays within [-1, 1] despite float32 rounding', () => {
      for (let n = 1; n < 200; n++) {
        const v = l2Normalize(Array.from({ length: n }, (_, i) => Math.sin(i * 7 + n)));
        const c = cosineOfNormalized(v, v);
        assert.ok(c <= 1 && c > 0.9999, `dimension ${n}: ${c}`);
      }
    });

    it('dot refuses vectors of different dimensions', () => {
      assert.throws(() => dot(new Float32Array(2), new Float32Array(3)), RangeError);
    });
  });

  describe('stored bytes', () => {
    it('round-trips exactly', () => {
      const vector = l2Normalize(Array.from({ length: 1536 }, (_, i) => Math.cos(i) * (i % 7)));
      const back = bufferToVector(vectorToBuffer(vector));
      assert.deepEqual(back, vector);
    });

    it('keeps values float32 cannot mistake: negatives, tiny, huge, zero', () => {
      const vector = new Float32Array([-0.5, 1e-30, 3.4e38, 0, -1]);
      assert.deepEqual(bufferToVector(vectorToBuffer(vector)), vector);
    });

    it('is little-endian float32, 4 bytes a number', () => {
      const buffer = vectorToBuffer(new Float32Array([1, -2]));
      assert.equal(buffer.length, 8);
      assert.equal(buffer.toString('hex'), '0000803f000000c0');
    });

    it('reads bytes at any offset, as a driver may hand them (a slice of a larger buffer)', () => {
      const stored = vectorToBuffer(new Float32Array([0.25, 0.75]));
      const larger = Buffer.concat([Buffer.from([9]), stored, Buffer.from([9, 9])]);
      assert.deepEqual([...bufferToVector(larger.subarray(1, 9))], [0.25, 0.75]);
    });

    it('copies, so a reused driver buffer cannot change a vector afterwards', () => {
      const stored = vectorToBuffer(new Float32Array([1]));
      const vector = bufferToVector(stored);
      stored.fill(0);
      assert.deepEqual([...vector], [1]);
    });

    it('an empty vector is zero bytes and back', () => {
      assert.equal(vectorToBuffer(new Float32Array(0)).length, 0);
      assert.equal(bufferToVector(Buffer.alloc(0)).length, 0);
    });

    it('refuses a length that is not a whole number of floats', () => {
      assert.throws(() => bufferToVector(Buffer.alloc(6)), /6 bytes, not a multiple of 4/);
    });
  });
});
