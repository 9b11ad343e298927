// FAST PATH. What it buys: the in-memory rate limiter's cost on GET one, 0.90× → 0.95× of
// limits off, by skipping writeHead's per-header validation of lines we build ourselves
// (docs/decisions.md; rerun: `node bench/ratelimit.mjs`).
import { ServerResponse } from 'node:http';

/**
 * Node's own head writer, behind `response.writeHead`: it takes the status line (and anything
 * after it) as given, then adds the headers it is passed, validating each, and the Date,
 * Connection and Keep-Alive lines. Not documented, but unchanged since Node 0.x, and
 * reimplemented by Deno's and Bun's Node compatibility layers for libraries that call it.
 */
interface HeadWriter {
  _storeHeader(firstLine: string, headers: string[]): void;
}

/** False where the Node running us no longer has the head writer: then there is no fast path. */
export const canWriteReadyHead =
  typeof (ServerResponse.prototype as unknown as Partial<HeadWriter>)._storeHeader === 'function';

/**
 * `response.writeHead(200, …)` for a head whose first lines are ready-made: `lines`, each
 * `name: value\r\n`, go out as given, after the status line, and `headers` (`[name, value, …]`)
 * after them as writeHead would send them, with the Content-Length and keep-alive handling that
 * writeHead does.
 *
 * Node validates and lower-cases every header it is given one by one; for the handful of lines
 * the fast path sends on every request (the request id and the five rate-limit headers), that
 * cost more than the rate limiter itself (docs/performance.md). The caller vouches for `lines`:
 * only characters a header may hold, and no line breaks inside a value.
 */
export function writeReadyHead(response: ServerResponse, lines: string, headers: string[]): void {
  response.statusCode = 200;
  response.statusMessage = 'OK';
  (response as unknown as HeadWriter)._storeHeader(`HTTP/1.1 200 OK\r\n${lines}`, headers);
}
