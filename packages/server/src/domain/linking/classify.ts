import { EDGE_TYPES, type EdgeType } from '../../model.js';
import type { ChatProvider } from '../../providers/index.js';
import type { Side } from './candidates.js';
import type { Proposal } from './proposal.js';

/**
 * With an LLM provider, the best candidates the rules found are classified into any of the six
 * edge types, with the reason as the label (design §9): the rules know that two snapshots are
 * related and how strongly; the model says how — one supports, contradicts or was caused by the
 * other — or that they are not related after all. One call per snapshot, for its best
 * CLASSIFIED candidates; the strength stays the rules' score. A candidate the model leaves out
 * keeps the rules' type and reason.
 */
export const CLASSIFIED = 8;
/** Enough of each text for the model to judge by, few enough tokens for a small context. */
const TEXT_CHARS = 400;

const CLASSIFY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['edges'],
  properties: {
    edges: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['candidate', 'edge_type', 'direction', 'label'],
        properties: {
          candidate: { type: 'integer', minimum: 1 },
          edge_type: { type: 'string', enum: [...EDGE_TYPES, 'none'] },
          direction: { type: 'string', enum: ['from_subject', 'to_subject'] },
          label: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
    },
  },
} as const;

interface Classification {
  candidate: number;
  edge_type: EdgeType | 'none';
  direction: 'from_subject' | 'to_subject';
  label: string;
}

const SYSTEM = `You link knowledge snapshots. Given a subject snapshot and numbered candidates, say for each candidate how
the two relate, as a directed edge from a source to a target: supports (the source is evidence for the target), contradicts
(the source disagrees with the target), elaborates (the source adds detail to the target), caused_by (the source is caused by
the target), evolved_from (the source is a newer version of the target), related_to (same topic, none of those), or none
(not related). direction: from_subject when the subject is the source, to_subject when the candidate is. label: the reason,
one short sentence. Answer for every candidate.`;

const clip = (text: string) => (text.length > TEXT_CHARS ? `${text.slice(0, TEXT_CHARS)}…` : text);
const describe = (side: Side) => `${side.name}: ${clip(side.one_liner ? `${side.one_liner} ${side.core}` : side.core)}`;

/**
 * The proposals with the model's types, directions and reasons for the first CLASSIFIED of
 * them; those it calls unrelated are left out. Throws what the provider throws: the caller
 * decides whether the rules' proposals will do instead.
 */
export async function classifyProposals(
  llm: ChatProvider,
  subject: Side,
  proposals: Proposal[],
  others: ReadonlyMap<string, Side>,
): Promise<Proposal[]> {
  const asked = proposals.slice(0, CLASSIFIED).filter((p) => others.has(otherEnd(p, subject.id)));
  if (asked.length === 0) return proposals;
  const user = [
    `Subject: ${describe(subject)}`,
    'Candidates:',
    ...asked.map((p, i) => `${i + 1}. ${describe(others.get(otherEnd(p, subject.id)) as Side)}`),
  ].join('\n');
  const { value } = await llm.structured<{ edges: Classification[] }>({
    name: 'edge_types',
    schema: CLASSIFY_SCHEMA,
    system: SYSTEM,
    user,
  });
  const answers = new Map(value.edges.map((edge) => [edge.candidate, edge]));
  const classified: Proposal[] = [];
  for (const p of proposals) {
    const index = asked.indexOf(p);
    const answer = index < 0 ? undefined : answers.get(index + 1);
    if (!answer) {
      classified.push(p);
      continue;
    }
    if (answer.edge_type === 'none') continue;
    const other = otherEnd(p, subject.id);
    const [source_id, target_id] = answer.direction === 'from_subject' ? [subject.id, other] : [other, subject.id];
    classified.push({ ...p, source_id, target_id, edge_type: answer.edge_type, reason: answer.label });
  }
  return classified;
}

/** The end of a proposed edge that is not the subject. */
export const otherEnd = (p: Proposal, subjectId: string) => (p.source_id === subjectId ? p.target_id : p.source_id);
