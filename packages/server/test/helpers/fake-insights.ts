// What a fake LLM (fake-openai.ts) answers to the crystallize extraction: one insight per
// sentence of the text it was sent (the first user message: a repair retry keeps it there),
// each a Rule with these tags, as JSON text.
export function insightsAnswer(tags: string[]): (body: any) => string {
  return (body) => {
    const chunk: string = body.messages.find((m: { role: string }) => m.role === 'user').content;
    const sentences = chunk.match(/[^.!?]+[.!?]/g) ?? [];
    return JSON.stringify({
      insights: sentences.map((sentence) => ({
        name: sentence.trim().split(/\s+/).slice(0, 4).join(' '),
        core: sentence.trim(),
        type: 'Rule',
        one_liner: sentence.trim(),
        story: null,
        method: null,
        steps: null,
        challenge: null,
        proof: null,
        tags,
        confidence: 0.9,
        significance_score: 0.7,
      })),
    });
  };
}
