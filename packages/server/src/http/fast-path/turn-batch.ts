// FAST PATH. What it buys: GET one from 66 to 34 µs of CPU a request under load on a 2-vCPU
// virtual machine (docs/decisions.md, "Caches and the hot paths"; rerun: `npm run bench --
// --only reads`, which reports CPU per request).
import type { ServerResponse } from 'node:http';

/*
 * Under load, one turn of the event loop reads dozens of requests. Written one by one as each is
 * computed, every response wakes its reader (a load balancer, a proxy beside us, a client) on
 * its own; on a virtual machine that wake-up is an interrupt to another CPU, which exits to the
 * hypervisor, and it cost as much as answering the request (docs/performance.md).
 * Written back to back when the turn ends, the responses of a turn wake each reader once.
 *
 * A lone request should not wait for that: a turn holds its responses only when the turn before
 * it answered more than one, so a quiet server answers at once and a busy one in batches.
 */

let held: Array<[ServerResponse, string]> = [];
let answeredThisTurn = 0;
let busy = false;

function endTurn(): void {
  const batch = held;
  held = [];
  busy = answeredThisTurn > 1;
  answeredThisTurn = 0;
  for (const [response, body] of batch) {
    try {
      response.end(body);
    } catch (err) {
      // One response that cannot be written must not keep the rest of the turn's from going out.
      response.destroy(err as Error);
    }
  }
}

/**
 * `response.end(body)`, now or, when the server is busy, when this turn of the event loop ends
 * (in the check phase, after every request read in this turn has been answered).
 */
export function endInTurn(response: ServerResponse, body: string): void {
  if (answeredThisTurn++ === 0) setImmediate(endTurn);
  if (busy) held.push([response, body]);
  else response.end(body);
}
