import { Ajv, type ValidateFunction } from 'ajv';
import type { LlmSettings } from '../config.js';
import { ProviderError } from './errors.js';
import { postJson } from './post-json.js';

/** Tokens one or more calls cost, as the provider counted them (0 when it does not say). */
export interface ChatUsage {
  tokensIn: number;
  tokensOut: number;
}

/** One question with a JSON answer of a known shape. */
export interface StructuredRequest {
  /** The schema's name, sent to the provider (letters, digits, `_` and `-`). */
  name: string;
  /** A small JSON Schema of the answer: what the provider is told and what its answer must pass. */
  schema: object;
  system: string;
  user: string;
  signal?: AbortSignal | undefined;
}

/** An OpenAI-compatible chat-completions endpoint that answers in JSON (design §10). */
export interface ChatProvider {
  readonly model: string;
  /** The model's context window: callers split their input to fit it. */
  readonly contextTokens: number;
  /** 'ok' until a call finds the provider unavailable, and again after the next success (for /readyz). */
  readonly state: 'ok' | 'unavailable';
  /**
   * The answer, validated against `schema`. An invalid answer is sent back once with what was
   * wrong (the repair retry); a second invalid one is a ProviderError of kind `error`. An answer
   * the provider cut off at its output limit is never used: AnswerTooLong asks the caller to send
   * less at a time.
   */
  structured<T>(request: StructuredRequest): Promise<{ value: T; usage: ChatUsage }>;
  /**
   * Whether the provider answers at all, without spending a token: `GET /models`, which
   * OpenAI-compatible servers serve. Any HTTP answer below 500 counts as reachable (a server
   * without that route still answers); no answer in time, a refused connection or a 5xx sets
   * `state` to 'unavailable' until a call succeeds. Never throws.
   */
  probe(): Promise<void>;
}

/** The provider stopped at its output limit (`finish_reason: "length"`): the input must be split. */
export class AnswerTooLong extends Error {
  constructor(readonly usage: ChatUsage) {
    super('the LLM provider stopped at its output limit');
    this.name = 'AnswerTooLong';
  }
}

interface Message {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

type Reading = { ok: true; value: unknown } | { ok: false; problem: string; content: string };

const validators = new WeakMap<object, ValidateFunction>();
let ajv: Ajv | undefined;

function validatorFor(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    ajv ??= new Ajv({ allErrors: true, strict: false });
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/**
 * Plain `fetch` (postJson) rather than the `openai` package, for the reasons given there and
 * one more: Ollama, vLLM and llama.cpp differ in what they add around an answer, and reading the
 * raw JSON lets us accept what they all send (a fenced block, text around the object) while the
 * schema still decides what is used.
 */
/** How long the start-up probe waits at most: a slow provider is a slow start, not a stuck one. */
const PROBE_TIMEOUT_MS = 5_000;

export function createChatProvider(settings: LlmSettings): ChatProvider {
  const url = `${settings.baseUrl}/chat/completions`;
  let state: ChatProvider['state'] = 'ok';

  async function complete(messages: Message[], request: StructuredRequest, usage: ChatUsage) {
    let answer: unknown;
    try {
      answer = await postJson({
        service: 'llm',
        url,
        apiKey: settings.apiKey,
        timeoutMs: settings.timeoutMs,
        signal: request.signal,
        body: {
          model: settings.model,
          messages,
          temperature: 0,
          response_format: {
            type: 'json_schema',
            json_schema: { name: request.name, schema: request.schema, strict: true },
          },
        },
      });
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'unavailable') state = 'unavailable';
      throw err;
    }
    state = 'ok';
    const choice = readChoice(answer);
    usage.tokensIn += choice.tokensIn;
    usage.tokensOut += choice.tokensOut;
    if (choice.finishReason === 'length') throw new AnswerTooLong(usage);
    return choice.content;
  }

  return {
    model: settings.model,
    contextTokens: settings.contextTokens,
    get state() {
      return state;
    },
    async probe() {
      try {
        const response = await fetch(`${settings.baseUrl}/models`, {
          headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
          signal: AbortSignal.timeout(Math.min(settings.timeoutMs, PROBE_TIMEOUT_MS)),
        });
        await response.body?.cancel().catch(() => undefined);
        if (response.status >= 500) state = 'unavailable';
      } catch {
        state = 'unavailable';
      }
    },
    async structured<T>(request: StructuredRequest) {
      const usage: ChatUsage = { tokensIn: 0, tokensOut: 0 };
      const messages: Message[] = [
        { role: 'system', content: `${request.system}\nAnswer with one JSON object only.` },
        { role: 'user', content: request.user },
      ];
      const first = readAnswer(await complete(messages, request, usage), request.schema);
      if (first.ok) return { value: first.value as T, usage };
      // The repair retry: the same conversation, the answer, and what was wrong with it.
      messages.push(
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: `That answer is not valid: ${first.problem}. Answer again with one JSON object that follows the schema "${request.name}" exactly.`,
        },
      );
      const second = readAnswer(await complete(messages, request, usage), request.schema);
      if (second.ok) return { value: second.value as T, usage };
      throw new ProviderError('error', `llm provider answered invalid JSON twice: ${second.problem}`, {
        service: 'llm',
      });
    },
  };
}

function readChoice(answer: unknown): { content: string; finishReason: unknown; tokensIn: number; tokensOut: number } {
  const body = answer as {
    choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  } | null;
  const choice = Array.isArray(body?.choices) ? body.choices[0] : undefined;
  const content = choice?.message?.content;
  if (typeof content !== 'string') {
    throw new ProviderError('error', 'llm provider answered without a message content', { service: 'llm' });
  }
  return {
    content,
    finishReason: choice?.finish_reason,
    tokensIn: count(body?.usage?.prompt_tokens),
    tokensOut: count(body?.usage?.completion_tokens),
  };
}

const count = (n: unknown): number => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0);

/**
 * The answer's JSON object, checked against the schema. Local models often wrap it in a
 * ```json fence or a sentence; the outermost `{ … }` is what is read.
 */
function readAnswer(content: string, schema: object): Reading {
  const start = content.indexOf('{');
  const end = content.lastIndexOf('}');
  if (start === -1 || end < start) return { ok: false, problem: 'it contains no JSON object', content };
  let value: unknown;
  try {
    value = JSON.parse(content.slice(start, end + 1));
  } catch (err) {
    return { ok: false, problem: `it is not valid JSON (${(err as Error).message})`, content };
  }
  const validate = validatorFor(schema);
  if (validate(value)) return { ok: true, value };
  const problems = (validate.errors ?? [])
    .slice(0, 10)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    .join('; ');
  return { ok: false, problem: problems, content };
}
