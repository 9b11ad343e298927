import type { Memory } from '../../../model.js';
import type { ChatProvider } from '../../../providers/index.js';
import { SAME_SUBJECT, subjectOverlap } from './rules.js';
import { statementOf } from './statement.js';

/**
 * With an LLM provider (design §6.1), the model decides as memory peers decide for each earlier
 * memory on the newcomer's subject: `update` (the same fact with another value: one replaces
 * the other), `keep` (the same fact, the same value) or `add` (a different fact). The rules
 * pick whom it is asked about: earlier memories sharing at least part of the subject, at most
 * ASKED of them, so the cost is one call a memory and only when there is something to judge.
 */
const ASKED = 5;
/** Enough of each text to judge by, few tokens. */
const TEXT_CHARS = 400;
/** Asked about: memories sharing at least this share of the subject (looser than the rules). */
const RELATED = SAME_SUBJECT / 2;

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['decisions'],
  properties: {
    decisions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['memory', 'action'],
        properties: {
          memory: { type: 'integer', minimum: 1 },
          action: { type: 'string', enum: ['add', 'update', 'keep'] },
        },
      },
    },
  },
} as const;

const SYSTEM = `You keep an agent's memory current. Given a new memory and numbered earlier memories, decide for each
earlier one: update (both state the same thing about the same subject, with a different value: a changed number, date,
name or place, or a correction), keep (the same thing with the same value), or add (a different fact). Answer for every
earlier memory.`;

const clip = (text: string) => (text.length > TEXT_CHARS ? `${text.slice(0, TEXT_CHARS)}…` : text);
const line = (m: Memory) => `${m.speaker ? `${m.speaker}: ` : ''}${clip(m.content)} (occurred ${m.occurred_at})`;

/** The candidates the model says `arrived` and they state one fact with different values. */
export async function judgeByLlm(llm: ChatProvider, arrived: Memory, candidates: Memory[]): Promise<Memory[]> {
  const own = statementOf(arrived.content);
  const asked = candidates
    .map((memory) => ({ memory, overlap: subjectOverlap(own, statementOf(memory.content), true) }))
    .filter((c) => c.overlap >= RELATED)
    .sort((a, b) => b.overlap - a.overlap)
    .slice(0, ASKED)
    .map((c) => c.memory);
  if (asked.length === 0) return [];
  const user = [`New memory: ${line(arrived)}`, 'Earlier memories:', ...asked.map((m, i) => `${i + 1}. ${line(m)}`)];
  const { value } = await llm.structured<{ decisions: { memory: number; action: string }[] }>({
    name: 'memory_updates',
    schema: SCHEMA,
    system: SYSTEM,
    user: user.join('\n'),
  });
  const updated = new Set(value.decisions.filter((d) => d.action === 'update').map((d) => d.memory));
  return asked.filter((_, i) => updated.has(i + 1));
}
