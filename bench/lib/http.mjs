/* global AbortSignal */
// Single requests for set-up and sanity checks (not for load).
import http from 'node:http';

/** GET `url`; throws unless 200. Returns { status, json, bytes, contentType }. */
export async function getJson(url, headers = {}) {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${bytes.toString().slice(0, 300)}`);
  return {
    status: res.status,
    json: JSON.parse(bytes.toString()),
    bytes,
    contentType: res.headers.get('content-type'),
  };
}

/** POST JSON; throws unless 2xx. Returns the parsed body. */
export async function postJson(url, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The list totals a server reports must match what was seeded (counts kept by triggers included). */
export async function checkSeededTotals(base, headers, brainId, { snapshots, edges }) {
  const list = await getJson(`${base}/v1/snapshots?limit=50`, headers);
  if (list.json.count !== snapshots) throw new Error(`list count is ${list.json.count}, not ${snapshots}`);
  if (list.json.data.length !== Math.min(50, snapshots)) throw new Error(`list returned ${list.json.data.length} rows`);
  if (edges > 0) {
    const page = await getJson(`${base}/v1/edges?brain_id=${brainId}&limit=200`, headers);
    if (page.json.total !== edges) throw new Error(`edge total is ${page.json.total}, not ${edges}`);
    if (page.json.data.length !== Math.min(200, edges)) throw new Error(`edges returned ${page.json.data.length} rows`);
  }
}

// Many small requests in a row (loading a data set, running questions): node:http on kept-alive
// connections. fetch costs several milliseconds more per POST here (its body goes out after
// the head, and the server's delayed ACK waits for it).
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * A JSON request over a kept-alive connection; throws unless 2xx. Resolves with the parsed body.
 * Sent once more when a kept connection turns out closed under it (EPIPE, ECONNRESET on a reused
 * socket): the server closes a connection left idle past its keep-alive timeout, as while
 * LongMemEval's imports run on PostgreSQL, and such a request never reached it.
 */
export function requestJson(method, url, options = {}) {
  return requestOnce(method, url, options).catch((err) => {
    if (!err.reusedSocket || (err.code !== 'EPIPE' && err.code !== 'ECONNRESET')) throw err;
    return requestOnce(method, url, options);
  });
}

function requestOnce(method, url, { body, headers = {}, timeoutMs = 30_000 } = {}) {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        timeout: timeoutMs,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode < 200 || res.statusCode > 299) {
            reject(new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 300)}`));
            return;
          }
          try {
            resolve(JSON.parse(text));
          } catch (err) {
            reject(new Error(`${method} ${url}: ${err.message}`));
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer in ${timeoutMs} ms`)));
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    req.end(payload);
  });
}
