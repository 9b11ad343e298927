import type { EdgeType, Snapshot } from '../../model.js';
import type { Domain } from '../context.js';
import { parseQuery, type ParsedQuery } from '../search/query.js';
import { wordSet } from './resemblance.js';
import { LINK_RULES } from './rules.js';

/** An edge the service would make, with its score and the reason in words. */
export interface Proposal {
  source_id: string;
  target_id: string;
  edge_type: EdgeType;
  strength: number;
  score: number;
  reason: string;
}

/** What a candidate's JSON row tells the rules. */
export interface CandidateText {
  id: string;
  name: string;
  core: string;
  one_liner: string | null;
  tags: string[];
}

/**
 * The edges the rules (rules.ts) would make between `snapshot` and other snapshots of its
 * brain, best first, leaving out any snapshot already linked to it and any (pair, type) the
 * user deleted.
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
  },
): Promise<Proposal[]> {
  const own = [snapshot.name, snapshot.one_liner ?? '', snapshot.tags.join(' '), snapshot.core].join('\n');
  const query = await distinctiveQuery(domain, snapshot, options.stored ?? true);
  const scope = { brainId: snapshot.brain_id };
  const [matches, around, near] = await Promise.all([
    domain.store.search.textMatches(scope, query, LINK_RULES.candidates + 1),
    // A snapshot not written yet has no edges and no tombstones to read.
    options.stored === false ? { linked: [], tombstoned: [] } : domain.store.links.neighbourhood(snapshot.id),
    // With vectors, the nearest in meaning are candidates too, sharing a word or not.
    domain.semantic?.neighboursOf(snapshot.brain_id, snapshot.id, LINK_RULES.candidates, LINK_RULES.meaningMin) ?? [],
  ]);
  const meaning = new Map(near.map((n) => [n.id, n.similarity]));
  const linked = new Set(around.linked);
  const candidateIds = new Set([...matches.hits.map((hit) => hit.id), ...meaning.keys()]);
  const others = [...candidateIds].filter((id) => id !== snapshot.id && !linked.has(id));
  const rows = await domain.store.search.snapshotsIn(scope, others);
  const texts = new Map(rows.map((row) => [row.id, JSON.parse(row.json) as CandidateText]));
  const tombstoned = new Set(around.tombstoned.map((t) => `${t.other_id} ${t.edge_type}`));
  const ownWords = wordSet(own);

  const proposals: Proposal[] = [];
  for (const id of others) {
    const other = texts.get(id);
    if (other === undefined) continue;
    const otherWords = wordSet([other.name, other.one_liner ?? '', other.tags.join(' '), other.core].join('\n'));
    const proposal = judge(snapshot, other, ownWords, otherWords, meaning.get(id));
    if (proposal.score < options.minScore) continue;
    if (options.edgeType !== undefined && proposal.edge_type !== options.edgeType) continue;
    if (tombstoned.has(`${other.id} ${proposal.edge_type}`)) continue;
    proposals.push(proposal);
  }
  return proposals.sort((a, b) => b.score - a.score || a.target_id.localeCompare(b.target_id)).slice(0, options.limit);
}

/** The score, type and reason of an edge between `snapshot` and `other` (rules.ts). */
export function judge(
  snapshot: Snapshot,
  other: CandidateText,
  ownWords: Set<string>,
  otherWords: Set<string>,
  meaning: number | undefined,
): Proposal {
  const shared = [...ownWords].filter((word) => otherWords.has(word));
  const words = shared.length === 0 ? 0 : shared.length / Math.sqrt(ownWords.size * otherWords.size);
  // Meaning, when vectors exist, can only add: the closer of the two resemblances counts.
  const text = Math.max(words, meaning ?? 0);
  const sharedTags = other.tags.filter((tag) => snapshot.tags.includes(tag));
  const tagUnion = new Set([...snapshot.tags, ...other.tags]).size;
  let score = Math.min(1, text + LINK_RULES.tagBonus * (tagUnion === 0 ? 0 : sharedTags.length / tagUnion));
  const ownText = [snapshot.core, snapshot.one_liner ?? ''].join(' ');
  const otherText = [other.core, other.one_liner ?? ''].join(' ');
  let edge: Pick<Proposal, 'source_id' | 'target_id' | 'edge_type'> = {
    source_id: snapshot.id,
    target_id: other.id,
    edge_type: 'related_to',
  };
  let reason: string;
  if (names(ownText, other.name)) {
    // This snapshot names the other: the named one adds detail to this one.
    edge = { source_id: other.id, target_id: snapshot.id, edge_type: 'elaborates' };
    reason = `"${snapshot.name}" names "${other.name}"`;
  } else if (names(otherText, snapshot.name)) {
    edge = { source_id: snapshot.id, target_id: other.id, edge_type: 'elaborates' };
    reason = `"${other.name}" names "${snapshot.name}"`;
  } else {
    reason =
      meaning !== undefined && meaning > words
        ? `similar meaning (cosine ${meaning.toFixed(2)})`
        : shared.length > 0
          ? `shares the words ${shared.slice(0, 5).join(', ')}`
          : 'similar wording';
  }
  if (edge.edge_type === 'elaborates')
    score = Math.max(score, LINK_RULES.mentionFloor + (1 - LINK_RULES.mentionFloor) * text);
  if (sharedTags.length > 0) reason += `; shares the tags ${sharedTags.join(', ')}`;
  const rounded = Math.round(score * 100) / 100;
  return { ...edge, strength: Math.max(0.01, rounded), score: Math.round(score * 10_000) / 10_000, reason };
}

/**
 * Whether `text` names `name`: all of its words, in order, as whole words, ignoring case; a name
 * needs at least one word that is not a stop word.
 */
function names(text: string, name: string): boolean {
  const words = name.toLowerCase().match(WORD);
  if (!words || words.join(' ').length < LINK_RULES.mentionMinLength) return false;
  // A name of stop words alone ("The", "Of the") is named by almost any text.
  if (parseQuery(name).terms.length === 0) return false;
  // Word by word rather than a RegExp made per pair: compiling those was a third of a
  // suggestion's CPU time.
  const tokens = text.toLowerCase().match(WORD) ?? [];
  for (let start = 0; start + words.length <= tokens.length; start++) {
    if (words.every((word, i) => tokens[start + i] === word)) return true;
  }
  return false;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The words a snapshot's candidates are searched with: its rarest words (store.search's
 * documentFrequencies) that some other snapshot has, at most LINK_RULES.queryWords, name and tag
 * words first among equally rare ones. Words in LINK_RULES.commonAt snapshots or more are left
 * out when any rarer word is left: they match most of a large brain and weigh almost nothing in
 * BM25, yet every match must be ranked (on made-up Zipf text at 100,000 snapshots, the longest
 * words instead of the rarest matched most of the brain: 300–600 ms a suggestion).
 *
 * `stored`: whether the snapshot is in the index itself (then a word found once is found in no
 * other snapshot); snapshots about to be written by a crystallize run or an ingestion are not.
 */
export async function distinctiveQuery(
  domain: Domain,
  snapshot: Pick<Snapshot, 'name' | 'tags' | 'one_liner' | 'core' | 'brain_id'>,
  stored = true,
): Promise<ParsedQuery> {
  const words = (text: string) => parseQuery(text.replaceAll('"', ' ')).terms;
  const named = words(`${snapshot.name} ${snapshot.tags.join(' ')}`);
  const rest = words(`${snapshot.one_liner ?? ''} ${snapshot.core}`).filter((word) => !named.includes(word));
  const all = [...named, ...rest];
  const frequency = await domain.store.search.documentFrequencies(snapshot.brain_id, all, LINK_RULES.commonAt);
  const df = (word: string) => frequency.get(word) ?? 0;
  const others = (w: { n: number }) => (stored ? w.n - 1 : w.n);
  // Words no other snapshot has go last rather than out: the frequencies are cached for a
  // minute, so a word only just written elsewhere may still count 0 here.
  const rarest = all
    .map((word, i) => ({ word, i, n: df(word) }))
    .sort((a, b) => Number(others(a) <= 0) - Number(others(b) <= 0) || a.n - b.n || a.i - b.i)
    .slice(0, LINK_RULES.queryWords);
  const uncommon = rarest.filter((w) => w.n < LINK_RULES.commonAt);
  const chosen = uncommon.length > 0 ? uncommon : rarest;
  return { terms: chosen.map((w) => w.word), prefixes: [], phrases: [] };
}
