import { AnswerTooLong, ProviderError, type ChatProvider, type ChatUsage } from '../../providers/index.js';
import { chunkText, estimateTokens } from '../extraction/index.js';

/**
 * How much of the model's context one chunk of input may fill: the rest holds the instructions
 * and the answer, which for extraction is about as long as the input.
 */
const INPUT_SHARE = 0.4;
/** Chunks asked at once: enough to hide a provider's latency, few enough not to meet its rate limit. */
const PARALLEL_CHUNKS = 3;

export interface ChunkedAnswers<T> {
  answers: T[];
  usage: ChatUsage;
  chunks: number;
}

/**
 * Asks one structured question per chunk of `text`, the chunks cut to fit the model's context
 * (long input is split, never truncated). An answer cut off at the provider's output limit is
 * never used: that chunk is split in two and asked again, down to a single sentence.
 */
export async function askPerChunk<T>(
  llm: ChatProvider,
  text: string,
  ask: (chunk: string) => Parameters<ChatProvider['structured']>[0],
  onChunkDone?: (done: number, total: number) => void,
): Promise<ChunkedAnswers<T>> {
  const budget = Math.max(128, Math.floor(llm.contextTokens * INPUT_SHARE));
  const queue = chunkText(text, budget);
  const total = queue.length;
  const usage: ChatUsage = { tokensIn: 0, tokensOut: 0 };
  const answers: T[] = [];
  let done = 0;

  async function askChunk(chunk: string): Promise<T[]> {
    try {
      const answer = await llm.structured<T>(ask(chunk));
      usage.tokensIn += answer.usage.tokensIn;
      usage.tokensOut += answer.usage.tokensOut;
      return [answer.value];
    } catch (err) {
      if (!(err instanceof AnswerTooLong)) throw err;
      usage.tokensIn += err.usage.tokensIn;
      usage.tokensOut += err.usage.tokensOut;
      const halves = chunkText(chunk, Math.max(1, Math.floor(estimateTokens(chunk) / 2)));
      if (halves.length < 2) {
        throw new ProviderError('error', 'llm provider could not answer one sentence within its output limit', {
          service: 'llm',
        });
      }
      const parts: T[] = [];
      for (const half of halves) parts.push(...(await askChunk(half)));
      return parts;
    }
  }

  // Chunks in order of the text, PARALLEL_CHUNKS at a time; answers keep the text's order.
  const results: T[][] = new Array<T[]>(total);
  let next = 0;
  let failed = false;
  async function worker() {
    while (next < total && !failed) {
      const index = next++;
      try {
        results[index] = await askChunk(queue[index] as string);
      } catch (err) {
        // The request fails as a whole: no further chunk is asked.
        failed = true;
        throw err;
      }
      onChunkDone?.(++done, total);
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHUNKS, total) }, worker));
  for (const result of results) answers.push(...result);
  return { answers, usage, chunks: total };
}
