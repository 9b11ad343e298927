// The CLI import's progress line (issue: it showed "0/s"): a rate is measured from when its
// phase began — the end of the phase before it — and is never shown as 0 while work moves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { phaseClock, rate } from '../src/cli/progress.js';

describe('import progress rate', () => {
  it('times a phase from the end of the one before it, so a phase reported once, done, has a real rate', () => {
    let now = 1_000;
    const clock = phaseClock(() => now);
    now = 1_500;
    assert.equal(clock.seen({ phase: 'check', done: 100, total: 1000 }), 1_000);
    now = 3_000;
    assert.equal(clock.seen({ phase: 'check', done: 1000, total: 1000 }), 1_000);
    now = 5_000;
    // The import phase's first (and only) report: it began when checking ended, at 3,000.
    const since = clock.seen({ phase: 'import', done: 2021, total: 2021 });
    assert.equal(since, 3_000);
    assert.equal(rate(2021, since, now), 1011);
  });

  it('is undefined before anything is done, at least 1 once something is, and finite when no time passed', () => {
    assert.equal(rate(0, 0, 10_000), undefined);
    assert.equal(rate(1, 0, 3_600_000), 1);
    assert.equal(rate(500, 7_000, 7_000), 500_000);
  });
});
