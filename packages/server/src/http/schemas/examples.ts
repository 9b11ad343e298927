/**
 * One consistent story for the document's examples: a snapshot, a second one it supports, the
 * edge between them, and their brain. The document test checks each example against its schema.
 */
export const EXAMPLE_IDS = {
  brain: 'brain_01JDQ8YF3K2M4N6P8Q0R2S4T6V',
  snapshot: 'snap_01JDQ8Z2X4M3N5P7Q9R1S3T5V7',
  other: 'snap_01JDQ8ZB6W8Y0A2C4E6G8J0K2M',
  edge: 'edge_01JDQ90A1B3C5D7E9F1G3H5J7K',
  account: 'acct_01JDQ8YF3K2M4N6P8Q0R2S4T6W',
} as const;

const created = '2026-11-21T10:00:00.000Z';

export const SNAPSHOT_EXAMPLE = {
  id: EXAMPLE_IDS.snapshot,
  brain_id: EXAMPLE_IDS.brain,
  name: 'Compounding',
  core: 'Small consistent gains compound over time',
  type: 'Principle',
  one_liner: 'Tiny daily gains beat rare big ones',
  story: null,
  moment: null,
  source: null,
  trigger_pattern: null,
  method: null,
  steps: null,
  filter: null,
  challenge: 'Most gains do not persist',
  break_test: null,
  risks: null,
  proof: null,
  emotion: { primary: 'calm', intensity: 0.4 },
  confidence: 0.8,
  significance_score: 0.5,
  tags: ['habits', 'growth'],
  source_type: 'manual',
  source_id: null,
  created_at: created,
  updated_at: created,
};

export const SNAPSHOT_CREATE_EXAMPLE = {
  name: 'Compounding',
  core: 'Small consistent gains compound over time',
  type: 'Principle',
  challenge: 'Most gains do not persist',
  emotion: { primary: 'calm', intensity: 0.4 },
  confidence: 0.8,
  tags: ['habits', 'growth'],
};

export const EDGE_EXAMPLE = {
  id: EXAMPLE_IDS.edge,
  brain_id: EXAMPLE_IDS.brain,
  source_id: EXAMPLE_IDS.other,
  target_id: EXAMPLE_IDS.snapshot,
  edge_type: 'supports',
  strength: 0.9,
  label: 'The habit study is the evidence behind compounding',
  origin: 'manual',
  created_at: created,
  updated_at: created,
};

export const EDGE_CREATE_EXAMPLE = {
  source_id: EXAMPLE_IDS.other,
  target_id: EXAMPLE_IDS.snapshot,
  edge_type: 'supports',
  strength: 0.9,
  label: 'The habit study is the evidence behind compounding',
};

export const BRAIN_EXAMPLE = {
  id: EXAMPLE_IDS.brain,
  account_id: EXAMPLE_IDS.account,
  name: 'Research',
  auto_link: false,
  snapshot_count: 2,
  edge_count: 1,
  memory_count: 3,
  pending_work: { auto_link: 0, embeddings: 0 },
  created_at: created,
  updated_at: created,
};

export const SUGGESTION_EXAMPLE = {
  source_id: EXAMPLE_IDS.other,
  target_id: EXAMPLE_IDS.snapshot,
  edge_type: 'related_to',
  strength: 0.78,
  score: 0.7778,
  reason: 'shares the words compound, habit, gains',
};
