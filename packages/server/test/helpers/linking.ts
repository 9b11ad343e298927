import assert from 'node:assert/strict';
import type { ApiResponse, TestKey } from './harness.js';

type Request = (method: string, url: string, options?: { key?: TestKey; body?: unknown }) => Promise<ApiResponse>;

/** Polls the brain until its queued auto-link work is done (the worker runs off the request path). */
export async function linkingSettled(request: Request, key: TestKey, brainId: string): Promise<void> {
  for (;;) {
    const res = await request('GET', `/v1/brains/${brainId}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    if (res.body.data.pending_work.auto_link === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
