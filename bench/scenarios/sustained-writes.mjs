// Scenario 3b: a sustained write load. 60 s of POST /v1/snapshots at 50 connections into one
// brain (the quick run: 2 s), which at this machine's rate grows the brain well past 300,000
// snapshots; the target is a POST p99 under 100 ms throughout. Snapgraph alone: the figure is
// its own tail latency, not a ratio.
import { getJson, postJson } from '../lib/http.mjs';
import { measure } from '../lib/load.mjs';
import { table, target } from '../lib/report.mjs';
import { prepareDatabase, startSnapgraph } from '../lib/server.mjs';
import { SNAPSHOT_BODY } from './writes.mjs';

export const id = 'sustained-writes';

export async function run(ctx) {
  const seconds = ctx.quick ? 2 : 60;
  const db = prepareDatabase();
  const server = await startSnapgraph({ databaseUrl: db.databaseUrl });
  const headers = { authorization: `Bearer ${db.key}` };
  try {
    await postJson(`${server.base}/v1/snapshots`, SNAPSHOT_BODY, headers);
    const sample = await measure({
      url: `${server.base}/v1/snapshots`,
      method: 'POST',
      body: SNAPSHOT_BODY,
      headers,
      seconds,
      connections: ctx.connections,
      pid: server.pid,
    });
    if (sample.non2xx > 0) throw new Error(`sustained writes: ${sample.non2xx} non-2xx responses`);
    const brain = await getJson(`${server.base}/v1/brains/${db.brain_id}`, headers);
    const grown = brain.json.data.snapshot_count;
    const met = ctx.quick ? undefined : sample.p99 < 100 && grown > 300_000;
    return {
      sections: [
        `## 3b. Sustained writes\n\n${seconds} s of POST /v1/snapshots at ${ctx.connections} connections into one ` +
          `brain of a fresh database (WAL, synchronous=FULL).\n\n` +
          table(
            ['req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'snapshots in the brain afterwards'],
            [
              [
                sample.rps.toFixed(0),
                sample.p50.toFixed(2),
                sample.p99.toFixed(2),
                sample.cpuPerRequestUs.toFixed(0),
                grown.toLocaleString('en'),
              ],
            ],
          ),
      ],
      targets: [
        target(
          '3',
          `POST p99 over ${seconds} s of sustained writes (brain grew to ${grown.toLocaleString('en')})`,
          `${sample.p99.toFixed(1)} ms`,
          '< 100 ms, past 300,000',
          met,
        ),
      ],
    };
  } finally {
    await server.stop();
    db.cleanup();
  }
}
