import assert from 'node:assert/strict';
import type { TestApi, TestKey } from './harness.js';

/** Sessions of [speaker, content] turns, as the ranking tests write a conversation. */
export type Sessions = [string, string][][];

/**
 * Writes every turn as a memory through the API, session by session, each with its speaker,
 * `session_id` (`<prefix>-<session number from 1>`) and `occurred_at` (`at(session, turn)`),
 * as an agent loads a conversation; returns each content's memory id.
 */
export async function writeConversation(
  api: TestApi,
  key: TestKey,
  sessions: Sessions,
  options: { prefix: string; at: (session: number, turn: number) => Date },
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [s, turns] of sessions.entries()) {
    for (const [t, [speaker, content]] of turns.entries()) {
      const res = await api.request('POST', '/v1/memories', {
        key,
        body: {
          content,
          speaker,
          session_id: `${options.prefix}-${s + 1}`,
          occurred_at: options.at(s, t).toISOString(),
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.set(content, (res.body.data as { id: string }).id);
    }
  }
  return ids;
}
