import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { snapgraphTools } from '../src/index.js';
import { liveSuite } from '../../langchain/test/support.js';

/** One answer of the model, as the SDK's provider interface types it. */
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** One model turn: a tool call, or the final text. */
const toolCallTurn = (toolName: string, input: object): LanguageModelV3GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId: 'call_1', toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});
const textTurn = (text: string): LanguageModelV3GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});

/**
 * The tools inside the SDK's own tool loop: `generateText` with the AI SDK's mock model (from
 * `ai/test`, the framework's) that calls a tool, then answers. No provider, no network but the
 * Snapgraph server's loopback port.
 */
describe('the tools in generateText', () => {
  const live = liveSuite();

  it('the SDK validates the model’s call, runs execute against the service and feeds the result back', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallTurn('remember', { content: 'The user’s cat is called Miso', speaker: 'user' }),
        textTurn('Noted.'),
      ],
    });
    const result = await generateText({
      model,
      tools: snapgraphTools({ client: live.client }),
      stopWhen: stepCountIs(3),
      prompt: 'My cat is called Miso.',
    });
    assert.equal(result.text, 'Noted.');
    const [toolResult] = result.steps[0]!.toolResults;
    assert.equal(toolResult?.toolName, 'remember');
    const kept = toolResult!.output as { id: string };
    assert.equal((await live.client.memories.get(kept.id)).content, 'The user’s cat is called Miso');

    // The model saw the tools' JSON schemas, and the tool's answer came back to it as JSON.
    const first = model.doGenerateCalls[0]!;
    assert.deepEqual(
      (first.tools ?? []).map((t) => t.name),
      ['remember', 'recall', 'searchKnowledge', 'crystallize'],
    );
    const second = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    assert.ok(second.includes(kept.id), 'the tool result is in the next prompt');
  });

  it('arguments outside the schema never reach the service: the model gets the validation error', async () => {
    const before = (await live.client.memories.list()).count;
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallTurn('remember', { content: '' }), textTurn('Sorry.')],
    });
    const result = await generateText({
      model,
      tools: snapgraphTools({ client: live.client }),
      stopWhen: stepCountIs(3),
      prompt: 'Remember nothing.',
    });
    const errors = result.steps[0]!.content.filter((part) => part.type === 'tool-error');
    assert.equal(errors.length, 1, JSON.stringify(result.steps[0]!.content));
    assert.equal((await live.client.memories.list()).count, before);
  });
});
