// turn-batch.ts decides when a fast-path answer is written: at once on a quiet server, at the
// end of the event-loop turn on a busy one. The responses here are stand-ins for Node's
// ServerResponse that record what was ended, and when.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { test } from 'node:test';
import { endInTurn } from '../../src/http/fast-path/turn-batch.js';

const ended: string[] = [];
const response = (name: string) =>
  ({
    end: (body: string) => void ended.push(`${name}:${body}`),
    destroy: () => void ended.push(`${name}:destroyed`),
  }) as unknown as ServerResponse;
const failing = (name: string) =>
  ({
    end: () => {
      throw new Error('socket gone');
    },
    destroy: () => void ended.push(`${name}:destroyed`),
  }) as unknown as ServerResponse;
/** Resolves after the current turn's check phase, where held answers are written. */
const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

test('a quiet server answers at once; after a busy turn, answers wait for the turn to end', async () => {
  endInTurn(response('a'), '1');
  assert.deepEqual(ended, ['a:1'], 'the first turn is quiet: written at once');
  endInTurn(response('b'), '2');
  assert.deepEqual(ended, ['a:1', 'b:2'], 'the turn before decides, so this one is at once too');
  await turnEnds();

  endInTurn(response('c'), '3');
  endInTurn(response('d'), '4');
  assert.deepEqual(ended, ['a:1', 'b:2'], 'the turn before answered two: held');
  await turnEnds();
  assert.deepEqual(ended, ['a:1', 'b:2', 'c:3', 'd:4'], 'written when the turn ended, in order');

  endInTurn(response('e'), '5');
  assert.equal(ended.length, 4, 'still busy: held');
  await turnEnds();
  assert.deepEqual(ended.slice(4), ['e:5']);

  endInTurn(response('f'), '6');
  assert.deepEqual(ended.slice(5), ['f:6'], 'the turn before answered one: quiet again, at once');
  await turnEnds();
  ended.length = 0;
});

test('a held answer that cannot be written is destroyed, and the rest of its turn still goes out', async () => {
  endInTurn(response('a'), '1');
  endInTurn(response('b'), '2');
  await turnEnds(); // a busy turn
  endInTurn(response('c'), '3');
  endInTurn(failing('d'), '4');
  endInTurn(response('e'), '5');
  await turnEnds();
  assert.deepEqual(ended, ['a:1', 'b:2', 'c:3', 'd:destroyed', 'e:5']);
});
