import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the spike keeps its databases and results (they are large: ~1.1 GB at 1M): SPIKE_DIR, or the temp dir. */
export function spikeDir() {
  const dir = process.env.SPIKE_DIR ?? join(tmpdir(), 'snapgraph-topk-spike');
  mkdirSync(dir, { recursive: true });
  return dir;
}
