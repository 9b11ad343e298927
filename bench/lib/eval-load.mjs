// Loads a search-evaluation set into a fresh brain through the HTTP API, as a client would:
// the brain, then every snapshot, then the given edges, a few requests in flight at a time.
import { URLSearchParams } from 'node:url';
import { requestJson } from './http.mjs';
import { progress } from './progress.mjs';

const IN_FLIGHT = 8;

/** Runs `fn` over `items` with at most `limit` calls pending; results in the items' order. */
export async function inParallel(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A new brain holding `set`'s snapshots, and its edges unless `edges` is false. Returns
 * { brainId, idOf: Map<ref, id>, refOf: Map<id, ref>, seconds }.
 */
export async function loadBrain(base, headers, set, { name, autoLink = false, edges = true, label = name }) {
  const started = Date.now();
  // auto_link only when asked: a brain without it is what every build can make.
  const brain = await requestJson('POST', `${base}/v1/brains`, {
    body: autoLink ? { name, auto_link: true } : { name },
    headers,
  });
  const brainId = brain.data.id;
  const total = set.snapshots.length + (edges ? set.edges.length : 0);
  const bar = progress(`${label}: loading`, total);
  const ids = await inParallel(set.snapshots, IN_FLIGHT, async (s) => {
    const created = await requestJson('POST', `${base}/v1/snapshots`, {
      body: { brain_id: brainId, name: s.name, core: s.core },
      headers,
    });
    bar.tick();
    return created.data.id;
  });
  const idOf = new Map(set.snapshots.map((s, i) => [s.ref, ids[i]]));
  const refOf = new Map(set.snapshots.map((s, i) => [ids[i], s.ref]));
  if (edges) {
    await inParallel(set.edges, IN_FLIGHT, async (e) => {
      await requestJson('POST', `${base}/v1/edges`, {
        body: {
          source_id: idOf.get(e.source_ref),
          target_id: idOf.get(e.target_ref),
          edge_type: e.edge_type,
          strength: e.strength,
          label: e.label,
        },
        headers,
      });
      bar.tick();
    });
  }
  bar.end();
  return { brainId, idOf, refOf, seconds: (Date.now() - started) / 1000 };
}

/**
 * Polls the brain until its background work (automatic linking, embeddings) is done. Throws
 * when the queue has not shrunk for `stallMs` (nothing is working it off) or after `timeoutMs`.
 * Returns the brain as GET /v1/brains/:id last answered.
 */
export async function waitForBackgroundWork(
  base,
  headers,
  brainId,
  { timeoutMs = 900_000, stallMs = 30_000, label = brainId } = {},
) {
  const started = Date.now();
  let lowest = Infinity;
  let movedAt = started;
  let loggedAt = started;
  for (;;) {
    const brain = (await requestJson('GET', `${base}/v1/brains/${brainId}`, { headers })).data;
    const pending = Object.values(brain.pending_work ?? {}).reduce((sum, n) => sum + n, 0);
    if (pending === 0) return brain;
    const now = Date.now();
    if (pending < lowest) {
      lowest = pending;
      movedAt = now;
    }
    if (now - movedAt > stallMs)
      throw new Error(`${label}: ${pending} background tasks, none done in ${stallMs / 1000} s`);
    if (now - started > timeoutMs)
      throw new Error(`${label}: background work still pending after ${timeoutMs / 1000} s`);
    if (now - loggedAt > 5000) {
      loggedAt = now;
      console.error(`${label}: waiting for background work ${JSON.stringify(brain.pending_work)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** GET /v1/snapshots/search; returns the result ids, best first. */
export async function searchIds(base, headers, { q, brainId, graph, limit = 10 }) {
  const params = new URLSearchParams({ q, brain_id: brainId, limit: String(limit), graph: String(graph) });
  const json = await requestJson('GET', `${base}/v1/snapshots/search?${params}`, { headers });
  return json.data.map((row) => row.id);
}
