// A made-up brain as an export file (the format of packages/server/src/domain/transfer), written
// as a stream: N snapshots, 3 edges each, 20 tombstones. Ids and times grow with the record's
// number, so the file is in the order `snapgraph export` writes it, and an import followed by an
// export gives it back byte for byte (but for the header). Used by bench/transfer.mjs and the
// CLI tests of export and import.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const TYPES = ['Belief', 'Model', 'Rule', 'Conviction', 'Principle'];
const EDGE_TYPES = ['supports', 'elaborates', 'related_to'];
const WORDS = ['habit', 'focus', 'rest', 'trust', 'growth', 'risk', 'craft', 'patience', 'curiosity', 'clarity'];

function base32(n, width) {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 32] + out;
    n = Math.floor(n / 32);
  }
  return out;
}

const iso = (ms) => new Date(ms).toISOString();
export const syntheticBrainId = `brain_${base32(T0, 10)}BENCH00000000000`;
const accountId = `acct_${base32(T0, 10)}BENCH00000000000`;
const snapshotId = (i) => `snap_${base32(T0 + i, 10)}${base32(i, 16)}`;

function snapshot(i) {
  const word = WORDS[i % WORDS.length];
  return {
    id: snapshotId(i),
    brain_id: syntheticBrainId,
    name: `Snapshot ${i} on ${word}`,
    core: `Statement ${i}: ${word} compounds when it is practised every day, and fades when it is not.`,
    type: TYPES[i % TYPES.length],
    one_liner: i % 2 === 0 ? `${word} in one line` : null,
    story: null,
    moment: null,
    emotion: i % 7 === 0 ? { primary: 'calm', intensity: 0.5 } : null,
    source: null,
    trigger_pattern: null,
    method: null,
    steps: null,
    filter: null,
    challenge: i % 5 === 0 ? `What if ${word} is overrated?` : null,
    break_test: null,
    risks: null,
    proof: null,
    confidence: ((i % 9) + 1) / 10,
    significance_score: 0.5,
    tags: i % 3 === 0 ? [word, `t${i % 50}`] : [],
    source_type: 'manual',
    source_id: null,
    created_at: iso(T0 + i),
    updated_at: iso(T0 + i),
  };
}

/** Writes the file; resolves with the number of records of each kind. `snapshots` must be at least 7. */
export async function writeSyntheticExport(path, { snapshots }) {
  const n = snapshots;
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  let pending = '';
  const write = async (line) => {
    pending += line;
    if (pending.length < 1 << 16) return;
    const ok = out.write(pending);
    pending = '';
    if (!ok) await once(out, 'drain');
  };
  const counts = { brain: 1, snapshot: n, edge: 3 * n, tombstone: Math.min(20, n) };
  const record = (kind, data) => write(`{"kind":"${kind}","data":${JSON.stringify(data)}}\n`);
  await write(
    `${JSON.stringify({
      format: 'snapgraph-export',
      version: 1,
      exported_at: iso(Date.now()),
      brain_id: syntheticBrainId,
      sections: ['brain', 'snapshot', 'edge', 'tombstone'],
    })}\n`,
  );
  await record('brain', {
    id: syntheticBrainId,
    account_id: accountId,
    name: 'Synthetic',
    auto_link: false,
    created_at: iso(T0),
    updated_at: iso(T0),
  });
  for (let i = 0; i < n; i++) await record('snapshot', snapshot(i));
  let e = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 1; k <= 3; k++, e++) {
      await record('edge', {
        id: `edge_${base32(T0 + n + e, 10)}${base32(e, 16)}`,
        brain_id: syntheticBrainId,
        source_id: snapshotId(i),
        target_id: snapshotId((i + k) % n),
        edge_type: EDGE_TYPES[k - 1],
        strength: k / 4,
        label: k === 1 ? 'because' : null,
        origin: i % 2 === 0 ? 'manual' : 'auto',
        created_at: iso(T0 + n + e),
        updated_at: iso(T0 + n + e),
      });
    }
  }
  for (let i = 0; i < counts.tombstone; i++) {
    await record('tombstone', {
      source_id: snapshotId(i),
      target_id: snapshotId((i + 5) % n),
      edge_type: 'contradicts',
      brain_id: syntheticBrainId,
      created_at: iso(T0 + 10 * n + i),
    });
  }
  await write(`${JSON.stringify({ kind: 'end', counts })}\n`);
  out.end(pending);
  await once(out, 'finish');
  return counts;
}
