/* global AbortSignal */
// Single requests for set-up and sanity checks (not for load).

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
