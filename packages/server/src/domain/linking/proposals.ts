import type { EdgeType, Snapshot } from '../../model.js';
import type { Domain } from '../context.js';
import { CandidateSearch, sideOf, type Side } from './candidates.js';
import { classifyProposals, otherEnd } from './classify.js';
import { LINK_RULES } from './rules.js';
import type { Proposal } from './proposal.js';

export type { Proposal } from './proposal.js';

/**
 * The edges the rules (rules.ts) would make between `snapshot` and other snapshots of its
 * brain, best first, leaving out any snapshot already linked to it and any (pair, type) the
 * user deleted. With `classify` and an LLM provider, the model types the best of them
 * (classify.ts).
 */
export async function proposeLinks(
  domain: Domain,
  snapshot: Snapshot,
  options: {
    minScore: number;
    limit: number;
    edgeType?: EdgeType | undefined;
    /** False for a snapshot not written yet (distinctiveQuery). */
    stored?: boolean;
    /** The run's search, shared by the snapshots written together (candidates.ts). */
    search?: CandidateSearch | undefined;
    /** The snapshot as the rules compare it, when the caller has worked it out already. */
    side?: Side | undefined;
    /** Let the LLM, when one is configured, classify the best candidates. */
    classify?: boolean;
  },
): Promise<Proposal[]> {
  const stored = options.stored ?? true;
  const search = options.search ?? new CandidateSearch(domain, snapshot.brain_id);
  const [matches, named, around, near] = await Promise.all([
    search.bestMatches(snapshot, stored),
    search.namingTheSame(snapshot, stored),
    // A snapshot not written yet has no edges and no tombstones to read.
    stored ? domain.store.links.neighbourhood(snapshot.id) : { linked: [], tombstoned: [] },
    // With vectors, the nearest in meaning are candidates too, sharing a word or not.
    domain.semantic?.neighboursOf(snapshot.brain_id, snapshot.id, LINK_RULES.candidates, LINK_RULES.meaningMin) ?? [],
  ]);
  const meaning = new Map(near.map((n) => [n.id, n.similarity]));
  const linked = new Set(around.linked);
  const candidateIds = new Set([...matches, ...named.keys(), ...meaning.keys()]);
  const others = [...candidateIds].filter((id) => id !== snapshot.id && !linked.has(id));
  const sides = await search.sidesOf(others);
  const tombstoned = new Set(around.tombstoned.map((t) => `${t.other_id} ${t.edge_type}`));
  const own = options.side ?? sideOf(snapshot);

  let proposals: Proposal[] = [];
  for (const id of others) {
    const other = sides.get(id);
    if (other === undefined) continue;
    const proposal = judge(own, other, meaning.get(id), named.get(id));
    if (proposal.score >= options.minScore) proposals.push(proposal);
  }
  proposals.sort((a, b) => b.score - a.score || a.target_id.localeCompare(b.target_id));
  if (options.classify && domain.llm) {
    // Without an answer (the provider down, slow or confused), the rules' proposals stand:
    // linking never waits on, or fails with, the LLM.
    proposals = await classifyProposals(domain.llm, own, proposals, sides).catch(() => proposals);
  }
  return proposals
    .filter((p) => options.edgeType === undefined || p.edge_type === options.edgeType)
    .filter((p) => !tombstoned.has(`${otherEnd(p, snapshot.id)} ${p.edge_type}`))
    .slice(0, options.limit);
}

/**
 * The score, type and reason of an edge between `own` and `other` (rules.ts); `sharedName`: a
 * rare thing both name (CandidateSearch.namingTheSame), as `own` writes it.
 */
export function judge(own: Side, other: Side, meaning: number | undefined, sharedName?: string): Proposal {
  const shared = [...own.words].filter((word) => other.words.has(word));
  const words = shared.length === 0 ? 0 : shared.length / Math.sqrt(own.words.size * other.words.size);
  // Meaning, when vectors exist, can only add: the closer of the two resemblances counts.
  const text = Math.max(words, meaning ?? 0);
  const sharedTags = other.tags.filter((tag) => own.tags.includes(tag));
  const tagUnion = new Set([...own.tags, ...other.tags]).size;
  let score = Math.min(1, text + LINK_RULES.tagBonus * (tagUnion === 0 ? 0 : sharedTags.length / tagUnion));
  let edge: Pick<Proposal, 'source_id' | 'target_id' | 'edge_type'> = {
    source_id: own.id,
    target_id: other.id,
    edge_type: 'related_to',
  };
  let reason: string;
  if (names(own, other)) {
    // This snapshot names the other: the named one adds detail to this one.
    edge = { source_id: other.id, target_id: own.id, edge_type: 'elaborates' };
    reason = `"${own.name}" names "${other.name}"`;
  } else if (names(other, own)) {
    edge = { source_id: own.id, target_id: other.id, edge_type: 'elaborates' };
    reason = `"${other.name}" names "${own.name}"`;
  } else if (sharedName !== undefined) {
    reason = `both name "${sharedName}"`;
  } else {
    reason =
      meaning !== undefined && meaning > words
        ? `similar meaning (cosine ${meaning.toFixed(2)})`
        : shared.length > 0
          ? `shares the words ${shared.slice(0, 5).join(', ')}`
          : 'similar wording';
  }
  if (edge.edge_type === 'elaborates' || sharedName !== undefined)
    score = Math.max(score, LINK_RULES.mentionFloor + (1 - LINK_RULES.mentionFloor) * text);
  if (sharedTags.length > 0) reason += `; shares the tags ${sharedTags.join(', ')}`;
  const rounded = Math.round(score * 100) / 100;
  return { ...edge, strength: Math.max(0.01, rounded), score: Math.round(score * 10_000) / 10_000, reason };
}

/**
 * Whether the core or one_liner of `text` names `named`: all of its name's words, in order, as
 * whole words, ignoring case; a name needs at least one word that is not a stop word.
 */
function names(text: Side, named: Side): boolean {
  const words = named.nameWords;
  if (words === null) return false;
  // Word by word rather than a RegExp made per pair: compiling those was a third of a
  // suggestion's CPU time.
  const tokens = text.tokens;
  for (let start = 0; start + words.length <= tokens.length; start++) {
    if (words.every((word, i) => tokens[start + i] === word)) return true;
  }
  return false;
}
