// Design §5.3-§5.5 and §5 through HTTP, on a manual clock, for every plan and every routed
// group: the exact number admitted in one second (the burst) and in one minute (the per-minute
// limit), every header value request by request, the 429 body, and that waiting exactly
// Retry-After is enough.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { manualClock, startTestApi, type TestApi } from '../helpers/harness.js';
import {
  GROUPS,
  MINUTE,
  PLAN_CASES,
  ROUTES,
  SECOND,
  assertAdmitted,
  assertRateLimitHeaders,
  assertRateLimited,
  keyFor,
  makeFixture,
  routesOf,
  send,
  type Fixture,
} from './support.js';

describe('rate limits over HTTP: exact counts and headers, every plan and routed group', () => {
  const clock = manualClock(Date.parse('2026-01-01T00:00:00.000Z') + 437);
  let api: TestApi;
  let fixture: Fixture;
  before(async () => {
    api = await startTestApi({ rateLimits: true, clock });
    ({ fixture } = await makeFixture(api));
  });
  after(() => api.close());

  /** A fresh minute for every test: the shared clock moves on by more than a minute. */
  const freshInstant = () => {
    clock.advance(2 * MINUTE + 123);
    return clock.now();
  };

  for (const plan of PLAN_CASES) {
    for (const route of ROUTES) {
      const { perMinute, perSecond } = plan.limits(route.group);
      it(`${plan.name} ${route.name} (${route.group}): ${perSecond} admitted within one second, headers count down, then 429 until exactly Retry-After`, async () => {
        const key = await keyFor(api, plan, fixture);
        const t = freshInstant();
        for (let i = 1; i <= perSecond; i++) {
          const res = await send(api, route, key, fixture);
          assertAdmitted(res, `request ${i}`);
          assertRateLimitHeaders(
            res,
            { limit: perMinute, remaining: perMinute - i, resetAtMs: t + MINUTE },
            `req ${i}`,
          );
        }
        for (let i = 0; i < 3; i++) {
          const refused = await send(api, route, key, fixture);
          assertRateLimited(refused, 1, `request ${perSecond + 1 + i}`);
          assertRateLimitHeaders(refused, { limit: perMinute, remaining: 0, resetAtMs: t + MINUTE }, 'the 429');
        }
        clock.set(t + SECOND - 1);
        assertRateLimited(await send(api, route, key, fixture), 1, '1 ms before the burst window rolls');
        clock.set(t + SECOND); // exactly Retry-After (1 s) after the refusals
        const again = await send(api, route, key, fixture);
        assertAdmitted(again, 'after waiting Retry-After');
        assertRateLimitHeaders(again, {
          limit: perMinute,
          remaining: perMinute - perSecond - 1,
          resetAtMs: t + SECOND + MINUTE,
        });
      });
    }

    for (const group of GROUPS) {
      const { perMinute, perSecond } = plan.limits(group);
      const routes = routesOf(group);
      it(`${plan.name} ${group}: ${perMinute} admitted within one minute when spread to dodge the burst (across all its routes and both prefixes), then 429 until the oldest is 60 s old`, async () => {
        const key = await keyFor(api, plan, fixture);
        const step = Math.ceil(SECOND / perSecond); // never more than the burst in any second
        const t0 = freshInstant();
        let sent = 0;
        const next = () => {
          const route = routes[sent % routes.length]!;
          const prefix = Math.floor(sent / routes.length) % 2 === 0 ? '/v1' : '/api/v1';
          sent++;
          return send(api, route, key, fixture, prefix);
        };
        for (let i = 0; i < perMinute; i++) {
          clock.set(t0 + i * step);
          const res = await next();
          assertAdmitted(res, `request ${i + 1} at +${i * step} ms`);
          assertRateLimitHeaders(
            res,
            { limit: perMinute, remaining: perMinute - i - 1, resetAtMs: t0 + i * step + MINUTE },
            `request ${i + 1}`,
          );
        }
        const tn = t0 + perMinute * step;
        clock.set(tn);
        const newestReset = t0 + (perMinute - 1) * step + MINUTE;
        const expectedWait = Math.ceil((t0 + MINUTE - tn) / SECOND);
        const refused = await next();
        const retryAfter = assertRateLimited(refused, expectedWait, `request ${perMinute + 1}`);
        assertRateLimitHeaders(refused, { limit: perMinute, remaining: 0, resetAtMs: newestReset });
        // Hammering while refused changes nothing.
        for (let i = 0; i < 5; i++) assertRateLimited(await next(), expectedWait, 'hammering');
        if (retryAfter > 1) {
          clock.set(tn + (retryAfter - 1) * SECOND);
          assertRateLimited(await next(), undefined, 'one second short of Retry-After');
        }
        clock.set(t0 + MINUTE - 1);
        assertRateLimited(await next(), 1, '1 ms before the oldest admission is 60 s old');
        clock.set(t0 + MINUTE);
        const again = await next();
        assertAdmitted(again, 'exactly 60 s after the oldest admission');
        assertRateLimitHeaders(again, { limit: perMinute, remaining: 0, resetAtMs: t0 + 2 * MINUTE });
        const waited = tn + retryAfter * SECOND;
        if (waited > t0 + MINUTE) {
          // The first refused client, back after exactly Retry-After, finds the second-oldest gone too.
          assert.ok(waited >= t0 + step + MINUTE, 'test design: the second slot is free by then');
          clock.set(waited);
          assertAdmitted(await next(), 'waiting exactly Retry-After after the first refusal');
        } else {
          assert.equal(waited, t0 + MINUTE, 'Retry-After led exactly to the admission above');
        }
      });
    }
  }
});
