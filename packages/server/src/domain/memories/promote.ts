import { conflict, notFound } from '../../errors.js';
import type { Edge, Memory, MemoryType, Principal, ProposedSnapshot, Snapshot, SnapshotType } from '../../model.js';
import { MemoryPromotionLost } from '../../store/memory-store.js';
import type { Domain } from '../context.js';
import { clip, proposeFromText } from '../crystallize/index.js';
import { CandidateSearch, proposeEdgesForNew } from '../linking/index.js';
import { newSnapshot, SNAPSHOT_LIMITS } from '../snapshots/index.js';
import { nextUpdatedAt } from '../validate.js';

export interface PromotionResult {
  /** False when the memory had been promoted before: nothing was made this time. */
  created: boolean;
  data: { memory: Memory; snapshots: Snapshot[]; edges: Edge[] };
}

/** The snapshot type a memory becomes when the extractor finds no insight in it. */
const SNAPSHOT_TYPE_OF: Record<MemoryType, SnapshotType> = {
  fact: 'Belief',
  decision: 'Rule',
  insight: 'Belief',
  story: 'Belief',
  framework: 'Model',
  preference: 'Conviction',
  event: 'Belief',
};

/** Words of a memory's content that name the snapshot made from it. */
const NAME_WORDS = 8;
/** Another request promoting or changing the memory at the same moment: look again this many times. */
const ATTEMPTS = 3;

/**
 * POST /v1/memories/:id/crystallize (design §12.4): the memory's insights become snapshots
 * (source_type "memory", source_id the memory), linked to each other and to the brain unless
 * `auto_link` is false, and the memory's `promoted_to` names the first — all in one
 * transaction. A memory already promoted answers with the snapshots made then, creating nothing;
 * of two promotions racing, the write of the second finds the memory promoted and does the same.
 */
export async function promoteMemory(
  domain: Domain,
  principal: Principal,
  id: string,
  options: { auto_link?: boolean | undefined },
): Promise<PromotionResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const memory = await domain.store.memories.get(principal.accountId, id);
    if (!memory) throw notFound('memory');
    if (memory.promoted_to !== null) {
      const snapshots = await domain.store.memories.promotedSnapshots(principal.accountId, memory);
      return { created: false, data: { memory, snapshots, edges: [] } };
    }
    const search = new CandidateSearch(domain, memory.brain_id);
    const { proposals } = await proposeFromText(domain, memory.brain_id, memory.content, { search });
    const fields = proposals.length > 0 ? proposals.map((p) => withMemoryContext(p, memory)) : [asSnapshot(memory)];
    const now = domain.clock.now();
    const snapshots = fields.map((f) =>
      newSnapshot(f, memory.brain_id, { source_type: 'memory', source_id: memory.id }, now),
    );
    const autoEdges = options.auto_link === false ? [] : await proposeEdgesForNew(domain, snapshots, search);
    const first = snapshots[0] as Snapshot;
    const at = nextUpdatedAt(memory.updated_at, now);
    try {
      const { edges } = await domain.store.knowledge.write(principal.accountId, {
        snapshots,
        autoEdges,
        promotion: { memoryId: memory.id, snapshotId: first.id, readAt: memory.updated_at, at },
      });
      domain.background?.nudge();
      return {
        created: true,
        data: { memory: { ...memory, promoted_to: first.id, updated_at: at }, snapshots, edges },
      };
    } catch (err) {
      if (!(err instanceof MemoryPromotionLost)) throw err;
    }
  }
  throw conflict('the memory kept changing while it was being promoted; try again');
}

/** The memory's tags and emotion carried over to a snapshot extracted from it. */
function withMemoryContext(proposal: ProposedSnapshot, memory: Memory): ProposedSnapshot & Partial<Snapshot> {
  return {
    ...proposal,
    tags: [...new Set([...memory.tags, ...proposal.tags])].slice(0, SNAPSHOT_LIMITS.tags),
    emotion: emotionOf(memory),
  };
}

/**
 * A memory too short for the extractor to find an insight in is still worth keeping: one
 * snapshot whose core is the whole memory, named by its first words.
 */
function asSnapshot(memory: Memory): ProposedSnapshot & Partial<Snapshot> {
  const words = memory.content.split(/\s+/).filter(Boolean);
  const name = words.length > NAME_WORDS ? `${words.slice(0, NAME_WORDS).join(' ')}…` : words.join(' ');
  return {
    name: clip(name, SNAPSHOT_LIMITS.name) as string,
    core: memory.content,
    type: SNAPSHOT_TYPE_OF[memory.memory_type],
    confidence: 0.5,
    significance_score: 0.5,
    tags: memory.tags.slice(0, SNAPSHOT_LIMITS.tags),
    emotion: emotionOf(memory),
    story: memory.memory_type === 'story' ? memory.content : null,
  };
}

/** The memory's emotional context as a snapshot's emotion object, or null when it has none. */
function emotionOf(memory: Memory): Snapshot['emotion'] {
  const emotion: Record<string, string | number> = {};
  if (memory.source_emotion !== null) emotion.primary = memory.source_emotion;
  if (memory.emotional_valence !== null) emotion.valence = memory.emotional_valence;
  if (memory.emotional_intensity !== null) emotion.intensity = memory.emotional_intensity;
  return Object.keys(emotion).length > 0 ? emotion : null;
}
