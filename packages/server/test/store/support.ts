// The Store opened directly on the suite's backend (SNAPGRAPH_TEST_BACKEND): a fresh database,
// migrated, and a brain in an account to write into. No HTTP, no domain: these suites drive the
// Store interface itself, so a change to a store's SQL is tested in seconds on both backends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Brain, Edge, Snapshot } from '../../src/model.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { createTestDatabase } from '../helpers/database.js';

export interface OpenedStore {
  store: Store;
  accountId: string;
  brain: Brain;
  close(): Promise<void>;
}

let counter = 0;
/** An id of the shape the service issues, unique within the run. */
export const testId = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(++counter).toString(36).padStart(6, '0')}`;

export const AT = '2026-01-01T00:00:00.000Z';

export async function openTestStore(): Promise<OpenedStore> {
  const dir = mkdtempSync(join(tmpdir(), 'snapgraph-store-'));
  const database = await createTestDatabase(dir);
  const store = await openStore(database.url);
  await store.migrate();
  const accountId = testId('acct');
  const brain: Brain = {
    id: testId('brain'),
    account_id: accountId,
    name: 'Store suite',
    auto_link: false,
    created_at: AT,
    updated_at: AT,
  };
  await store.brains.insert(brain, { id: accountId, created_at: AT });
  return {
    store,
    accountId,
    brain,
    close: async () => {
      await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function snapshotIn(brainId: string, fields: Partial<Snapshot> = {}): Snapshot {
  const snapshot = {
    id: testId('snap'),
    brain_id: brainId,
    name: 'Compounding',
    core: 'Small consistent gains compound over time',
    type: 'Belief',
    emotion: null,
    confidence: 0.5,
    significance_score: 0.5,
    tags: [],
    source_type: 'manual',
    source_id: null,
    one_liner: null,
    story: null,
    moment: null,
    source: null,
    trigger_pattern: null,
    method: null,
    steps: null,
    filter: null,
    challenge: null,
    break_test: null,
    risks: null,
    proof: null,
    created_at: AT,
    updated_at: AT,
    ...fields,
  };
  return snapshot as Snapshot;
}

export function edgeBetween(brainId: string, source: string, target: string, fields: Partial<Edge> = {}): Edge {
  return {
    id: testId('edge'),
    brain_id: brainId,
    source_id: source,
    target_id: target,
    edge_type: 'supports',
    strength: 0.8,
    label: null,
    origin: 'manual',
    created_at: AT,
    updated_at: AT,
    ...fields,
  };
}
