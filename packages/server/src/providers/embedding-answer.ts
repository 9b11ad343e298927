/**
 * Reading an OpenAI-compatible embeddings answer,
 * `{ data: [{ index, embedding: number[] }], usage: { prompt_tokens, total_tokens } }`,
 * trusting nothing: a vector stored from a bad answer would spoil search silently, long after
 * the call, so every answer is checked whole before any of it is used.
 */

export type EmbeddingAnswer =
  { ok: true; vectors: number[][]; dimension: number; tokens: number } | { ok: false; problem: string };

/**
 * `count`: how many texts were sent. `dimension`: the length every vector must have, when it
 * is already known; otherwise they must merely agree with each other.
 */
export function readEmbeddingAnswer(answer: unknown, count: number, dimension: number | undefined): EmbeddingAnswer {
  const fail = (problem: string): EmbeddingAnswer => ({ ok: false, problem });
  const data = (answer as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return fail('an answer without a data array');
  if (data.length !== count) return fail(`${data.length} embeddings for ${count} texts`);

  // The answer's order is not promised: `index` says which text each vector belongs to.
  const vectors = new Array<number[] | undefined>(count);
  let expected = dimension;
  for (const item of data as unknown[]) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= count) {
      return fail(`an embedding whose index ${JSON.stringify(index)} is not one of 0..${count - 1}`);
    }
    const at = index as number;
    if (vectors[at] !== undefined) return fail(`two embeddings for index ${at}`);
    if (!Array.isArray(embedding) || embedding.length === 0) return fail(`no list of numbers as embedding ${at}`);
    if (!embedding.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      return fail(`embedding ${at} with something other than finite numbers`);
    }
    expected ??= embedding.length;
    if (embedding.length !== expected) {
      return fail(`embedding ${at} of dimension ${embedding.length} where ${expected} was expected`);
    }
    vectors[at] = embedding as number[];
  }
  // `count` distinct indexes in 0..count-1 fill every place, so none is undefined here.
  return { ok: true, vectors: vectors as number[][], dimension: expected ?? 0, tokens: readTokens(answer) };
}

/**
 * Token usage is bookkeeping, not something a vector depends on, so an answer that omits it is
 * still used, and counts as 0 tokens.
 */
function readTokens(answer: unknown): number {
  const usage = (answer as { usage?: { total_tokens?: unknown; prompt_tokens?: unknown } }).usage;
  const tokens = usage?.total_tokens ?? usage?.prompt_tokens;
  return typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0 ? tokens : 0;
}
