import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inTurnWithSameText } from '../../src/domain/crystallize/same-text-runs.js';

/** A run that records when it starts and ends, and ends when told. */
function gatedRun(log: string[], name: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    open: () => open(),
    work: async () => {
      log.push(`${name} starts`);
      await gate;
      log.push(`${name} ends`);
      return name;
    },
  };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('runs of the same text into one brain take turns', () => {
  it('the second starts when the first ends; another brain does not wait', async () => {
    const log: string[] = [];
    const [a, b, c] = [gatedRun(log, 'a'), gatedRun(log, 'b'), gatedRun(log, 'c')];
    const first = inTurnWithSameText('brain_1', 'text', a.work);
    const second = inTurnWithSameText('brain_1', 'text', b.work);
    const elsewhere = inTurnWithSameText('brain_2', 'text', c.work);
    await tick();
    assert.deepEqual(log, ['a starts', 'c starts']);
    c.open();
    assert.equal(await elsewhere, 'c');
    a.open();
    assert.equal(await first, 'a');
    await tick();
    assert.deepEqual(log.slice(-2), ['a ends', 'b starts']);
    b.open();
    assert.equal(await second, 'b');
  });

  it('a run whose signal aborts while it waits leaves the line without running; the next still waits for the first', async () => {
    const log: string[] = [];
    const [a, b, c] = [gatedRun(log, 'a'), gatedRun(log, 'b'), gatedRun(log, 'c')];
    const controller = new AbortController();
    const first = inTurnWithSameText('brain_1', 'text', a.work);
    const aborted = inTurnWithSameText('brain_1', 'text', b.work, controller.signal);
    const third = inTurnWithSameText('brain_1', 'text', c.work);
    const reason = new Error('shutting down');
    controller.abort(reason);
    await assert.rejects(aborted, reason);
    await tick();
    assert.deepEqual(log, ['a starts'], 'the third waits for the first, still at work');
    a.open();
    await first;
    await tick();
    assert.deepEqual(log, ['a starts', 'a ends', 'c starts'], 'the aborted run never ran');
    c.open();
    assert.equal(await third, 'c');
  });

  it('a failed run lets the next one go', async () => {
    const failing = inTurnWithSameText('brain_1', 'other', () => Promise.reject(new Error('boom')));
    const next = inTurnWithSameText('brain_1', 'other', async () => 'ran');
    await assert.rejects(failing, /boom/);
    assert.equal(await next, 'ran');
  });
});
