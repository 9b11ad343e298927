import { SNAPSHOT_TYPES } from '../../model.js';
import type { ChatUsage } from '../../providers/index.js';
import { compute } from '../compute/index.js';
import type { Domain } from '../context.js';
import type { TextFormat } from '../extraction/index.js';
import { askPerChunk } from '../llm/index.js';
import type { RawProposal } from './proposal.js';

const nullableText = { type: ['string', 'null'] };

/** The answer asked of the LLM per chunk: small and flat, as local models follow best. */
const INSIGHTS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['insights'],
  properties: {
    insights: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'name',
          'core',
          'type',
          'one_liner',
          'story',
          'method',
          'steps',
          'challenge',
          'proof',
          'tags',
          'confidence',
          'significance_score',
        ],
        properties: {
          name: { type: 'string', minLength: 1 },
          core: { type: 'string', minLength: 1 },
          type: { type: 'string', enum: [...SNAPSHOT_TYPES] },
          one_liner: nullableText,
          story: nullableText,
          method: nullableText,
          steps: nullableText,
          challenge: nullableText,
          proof: nullableText,
          tags: { type: 'array', items: { type: 'string' } },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
          significance_score: { type: 'number', minimum: 0, maximum: 1 },
        },
      },
    },
  },
} as const;

const SYSTEM = `You turn text into knowledge snapshots: the distinct beliefs, insights, models, rules, convictions and principles it states.
For each one give: name (a short title, at most 8 words), core (the claim itself in one or two sentences, in the text's own words where possible),
type (Belief: something held true; Model: how something works; Rule: what to do or not do; Conviction: a firmly held stance;
Principle: a fundamental truth that guides decisions), one_liner (one sentence), and, only where the text gives them,
story (the experience behind it), method (how to apply it), steps (numbered steps), challenge (the strongest counterargument
or concession the text raises, as written), proof (the reasons and evidence the text gives for it); otherwise null.
A short argument is one insight: its claim as the core, its support as proof, the objections as challenge. tags: 1 to 5 lower-case topic words. confidence: how firmly the text holds it (0 to 1);
significance_score: how important it is to the text (0 to 1). Leave out greetings, filler and questions. Do not invent
anything the text does not say.`;

export interface Extraction {
  proposals: RawProposal[];
  usage: ChatUsage;
}

/**
 * The extract phase: the insights of the text, by the LLM when one is configured (one call per
 * chunk, which also fills the fields: fewer calls than an extract-then-fill pipeline), else by
 * the built-in extractor.
 */
export async function extractInsights(
  { llm, compute: pool }: Pick<Domain, 'llm' | 'compute'>,
  text: string,
  options: {
    signal?: AbortSignal | undefined;
    onChunkDone?: (done: number, total: number) => void;
    format?: TextFormat | undefined;
  },
): Promise<Extraction> {
  if (!llm) {
    // On the compute pool: the text's size must not hold up other requests.
    const proposals = await compute({ compute: pool }, 'extractSnapshots', [text, options.format], options.signal);
    options.onChunkDone?.(1, 1);
    return { proposals, usage: { tokensIn: 0, tokensOut: 0 } };
  }
  // The LLM reads the document's prose too: no code, tables or markup to spend tokens on.
  const prose = await compute({ compute: pool }, 'plainText', [text, options.format], options.signal);
  const { answers, usage } = await askPerChunk<{ insights: RawProposal[] }>(
    llm,
    prose,
    (chunk) => ({ name: 'insights', schema: INSIGHTS_SCHEMA, system: SYSTEM, user: chunk, signal: options.signal }),
    options.onChunkDone,
  );
  return { proposals: answers.flatMap((answer) => answer.insights), usage };
}
