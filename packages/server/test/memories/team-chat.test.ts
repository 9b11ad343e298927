// The current value first (design §6.1) on a three-day team chat (team-chat.ts): after each
// correction, the question about that fact ranks the turn holding the current value first —
// loaded in order, and loaded in reverse (occurred_at decides, not arrival).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from '../helpers/harness.js';
import { CHECKS, TURNS } from './team-chat.js';

describe('a three-day team chat: after each correction the current value ranks first', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.close());

  const load = async (key: Awaited<ReturnType<TestApi['newKey']>>, index: number) => {
    const turn = TURNS[index]!;
    const body = {
      content: turn.content,
      speaker: turn.speaker,
      occurred_at: turn.at,
      session_id: turn.at.slice(0, 10),
    };
    const res = await api.request('POST', '/v1/memories', { key, body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as string;
  };
  const first = async (key: Awaited<ReturnType<TestApi['newKey']>>, query: string) => {
    const res = await api.request('POST', '/v1/memories/search', { key, body: { query, limit: 5 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { id: string; content: string; superseded_by: string | null }[];
  };

  it('in order: every check holds right after its turn arrives', async () => {
    const key = await api.newKey();
    const ids: string[] = [];
    for (let i = 0; i < TURNS.length; i++) {
      ids.push(await load(key, i));
      for (const check of CHECKS.filter((c) => c.after === i)) {
        const found = await first(key, check.ask);
        assert.equal(
          found[0]?.content,
          TURNS[check.expect]!.content,
          `after turn ${i}, "${check.ask}": ${JSON.stringify(found.map((f) => f.content))}`,
        );
        assert.equal(found[0]?.superseded_by, null);
      }
    }
  });

  it('in reverse: the latest values are current, and each ranks above the versions it replaced', async () => {
    const key = await api.newKey();
    const ids = new Map<number, string>();
    for (let i = TURNS.length - 1; i >= 0; i--) ids.set(i, await load(key, i));
    for (const ask of new Set(CHECKS.map((c) => c.ask))) {
      const versions = CHECKS.filter((c) => c.ask === ask).map((c) => c.expect);
      const latest = Math.max(...versions);
      const history = await api.request('GET', `/v1/memories/${ids.get(latest)}/history`, { key });
      assert.deepEqual(
        history.body.data.map((m: { content: string }) => m.content),
        versions.sort((a, b) => a - b).map((v) => TURNS[v]!.content),
        `${ask}: the chain in time order`,
      );
      const found = (await first(key, ask)).map((f) => f.content);
      const at = (v: number) => found.indexOf(TURNS[v]!.content);
      assert.ok(at(latest) >= 0, `${ask}: ${JSON.stringify(found)}`);
      for (const v of versions)
        if (v !== latest && at(v) >= 0) assert.ok(at(latest) < at(v), `${ask}: ${JSON.stringify(found)}`);
    }
  });
});
