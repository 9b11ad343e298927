// The limiter on the system clock (no manual clock): a burst window really rolls after one
// second, and a client that sleeps exactly Retry-After is admitted (design §5.5).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from '../helpers/harness.js';
import { MINUTE, SECOND, assertAdmitted, assertRateLimited, sleep, withinASecond } from './support.js';

describe('rate limits in real time', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ rateLimits: true });
  });
  after(() => api.close());

  it('enterprise burst 3, rpm 1000: 3 admitted, the 4th is 429 Retry-After 1, and after sleeping 1 s admitted again', async () => {
    // A fresh key each attempt, so each starts from empty windows; the four requests must fit in
    // one second for the 4th to meet the burst window.
    const run = await withinASecond(async () => {
      const key = await api.newKey({ plan: 'enterprise', rpm: 1000, burst: 3 });
      const before = Date.now();
      const admitted = [];
      for (let i = 1; i <= 3; i++) admitted.push(await api.request('GET', '/v1/snapshots', { key }));
      const firstDone = Date.now();
      const refused = await api.request('GET', '/v1/snapshots', { key });
      return { key, before, admitted, firstDone, refused, refusedAt: Date.now() };
    });
    const { key, before, admitted, firstDone, refused, refusedAt } = run;
    admitted.forEach((res, i) => {
      assert.equal(res.status, 200, `request ${i + 1}`);
      assert.equal(res.headers['x-ratelimit-remaining'], String(1000 - (i + 1)));
    });
    const retryAfter = assertRateLimited(refused, 1, '4th request within a second');
    const reset = Number(refused.headers['x-ratelimit-reset']);
    assert.ok(
      reset >= Math.ceil((before + MINUTE) / 1000) && reset <= Math.ceil((firstDone + MINUTE) / 1000),
      `X-RateLimit-Reset ${reset} is the unix second, rounded up, a minute after the last admission`,
    );
    // Sleep exactly Retry-After, measured from when the refusal arrived.
    const wakeAt = refusedAt + retryAfter * SECOND;
    while (Date.now() < wakeAt) await sleep(Math.max(1, wakeAt - Date.now()));
    const again = await api.request('GET', '/v1/snapshots', { key });
    assertAdmitted(again, `after sleeping Retry-After (${Date.now() - refusedAt} ms)`);
    assert.equal(again.headers['x-ratelimit-remaining'], String(1000 - 4));
  });
});
