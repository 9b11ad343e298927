// A real HTTP server on 127.0.0.1 that speaks enough of the OpenAI protocol for our providers:
// POST /v1/embeddings and POST /v1/chat/completions. Each test scripts how it answers, call by
// call, so the providers' handling of slow, refusing and broken providers is tested over real
// sockets, the way it happens in production, instead of through a stub of our own interface.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What any endpoint can be told to do with one call. */
export type CommonBehaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; retryAfter?: number | string; message?: string }
  | { kind: 'delay'; ms: number; then: CommonBehaviour }
  | { kind: 'reset' }
  | { kind: 'cutOff' }
  | { kind: 'invalidJson' }
  | { kind: 'raw'; status: number; body: string; headers?: Record<string, string> };

export type EmbeddingsBehaviour =
  | CommonBehaviour
  | { kind: 'delay'; ms: number; then: EmbeddingsBehaviour }
  /** The last vector (the only one, for one text) is one number longer than the dimension. */
  | { kind: 'wrongDimension' }
  /** One vector fewer than there are texts. */
  | { kind: 'wrongCount' }
  /** Correct vectors with correct indexes, listed last text first. */
  | { kind: 'reversed' };

export interface ChatAnswer {
  /** The assistant's message, or a function of the request's parsed body that makes it. */
  content: string | ((body: any) => string);
  finishReason?: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export type ChatBehaviour =
  CommonBehaviour | { kind: 'delay'; ms: number; then: ChatBehaviour } | ({ kind: 'answer' } & ChatAnswer);

export interface BehaviourOf {
  embeddings: EmbeddingsBehaviour;
  chat: ChatBehaviour;
}
export type Endpoint = keyof BehaviourOf;

/** Builders for the behaviours, so a script reads as a list: `status(429, { retryAfter: 3 })`. */
export const behave = {
  /** A normal answer: deterministic vectors, or for chat the echo of the last message. */
  ok: () => ({ kind: 'ok' }) as const,
  /** An OpenAI-style error body with this status, and a Retry-After header when given. */
  status: (status: number, options: { retryAfter?: number | string; message?: string } = {}) =>
    ({ kind: 'status', status, ...options }) as const,
  /** Answer `then` (by default normally) only after `ms` milliseconds. */
  delay: <B extends EmbeddingsBehaviour | ChatBehaviour = { kind: 'ok' }>(ms: number, then?: B) =>
    ({ kind: 'delay', ms, then: then ?? ({ kind: 'ok' } as B) }) as const,
  /** Read the request, then reset the connection without answering. */
  reset: () => ({ kind: 'reset' }) as const,
  /** Start a 200 answer, then reset the connection halfway through its body. */
  cutOff: () => ({ kind: 'cutOff' }) as const,
  /** A 200 whose body is cut off in the middle of the JSON. */
  invalidJson: () => ({ kind: 'invalidJson' }) as const,
  /** Exactly this status and body, for answers no other behaviour makes. */
  raw: (status: number, body: string, headers?: Record<string, string>) =>
    ({ kind: 'raw', status, body, ...(headers ? { headers } : {}) }) as const,
  wrongDimension: () => ({ kind: 'wrongDimension' }) as const,
  wrongCount: () => ({ kind: 'wrongCount' }) as const,
  reversed: () => ({ kind: 'reversed' }) as const,
  /** A chat completion with this content (and finish reason, usage). */
  answer: (answer: ChatAnswer) => ({ kind: 'answer', ...answer }) as const,
};

export interface RecordedCall {
  method: string;
  /** Without the query string, e.g. `/v1/embeddings`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: any;
}

export interface FakeOpenAIOptions {
  /** Length of the embedding vectors; 64 unless given. */
  dimension?: number;
  /** When set, a request without `Authorization: Bearer <apiKey>` is refused with 401, as OpenAI does. */
  apiKey?: string;
}

export interface FakeOpenAI {
  /** The base URL to configure, including `/v1`: `http://127.0.0.1:<port>/v1`. */
  url: string;
  dimension: number;
  /** Every request received, in order, whatever it was answered. */
  calls: RecordedCall[];
  callsTo(endpoint: Endpoint): RecordedCall[];
  /** Queue behaviours for the next calls to `endpoint`, one each, after those already queued. */
  script<E extends Endpoint>(endpoint: E, ...behaviours: BehaviourOf[E][]): void;
  /** What `endpoint` does once its queue is empty (initially `ok`). */
  setDefault<E extends Endpoint>(endpoint: E, behaviour: BehaviourOf[E]): void;
  close(): Promise<void>;
}

const PATHS: Record<string, Endpoint> = { '/v1/embeddings': 'embeddings', '/v1/chat/completions': 'chat' };

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const dimension = options.dimension ?? 64;
  const calls: RecordedCall[] = [];
  const queues: { [E in Endpoint]: BehaviourOf[E][] } = { embeddings: [], chat: [] };
  const defaults: BehaviourOf = { embeddings: behave.ok(), chat: behave.ok() };
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    readBody(req).then(
      (text) => {
        const path = (req.url ?? '/').split('?')[0] as string;
        const body = parseOrText(text);
        calls.push({ method: req.method ?? '', path, headers: req.headers, body });
        const endpoint = PATHS[path];
        if (endpoint === undefined) return sendError(res, 404, `no route ${path} in the fake provider`);
        if (req.method !== 'POST') return sendError(res, 405, `${req.method} is not allowed on ${path}`);
        if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
          return sendError(res, 401, 'Incorrect API key provided');
        }
        const behaviour = queues[endpoint].shift() ?? defaults[endpoint];
        perform(behaviour, endpoint, body, req, res);
      },
      () => req.socket.destroy(),
    );
  });

  function perform(
    behaviour: EmbeddingsBehaviour | ChatBehaviour,
    endpoint: Endpoint,
    body: any,
    req: IncomingMessage,
    res: ServerResponse,
  ): void {
    switch (behaviour.kind) {
      case 'delay': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) perform(behaviour.then, endpoint, body, req, res);
        }, behaviour.ms);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'status':
        return sendError(
          res,
          behaviour.status,
          behaviour.message ?? `fake provider answered ${behaviour.status}`,
          behaviour.retryAfter,
        );
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'cutOff':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"object": "list", "data": [', () => req.socket.resetAndDestroy());
        return;
      case 'invalidJson':
        return send(res, 200, '{"object": "list", "data": [{"index": 0, "embedding": [0.1, ');
      case 'raw':
        return send(res, behaviour.status, behaviour.body, behaviour.headers);
      case 'answer':
        return sendJson(res, 200, chatCompletion(body, behaviour));
      case 'ok':
        return sendJson(
          res,
          200,
          endpoint === 'embeddings' ? embeddingsAnswer(body, dimension) : chatCompletion(body, {}),
        );
      case 'wrongDimension':
      case 'wrongCount':
      case 'reversed':
        return sendJson(res, 200, embeddingsAnswer(body, dimension, behaviour.kind));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    dimension,
    calls,
    callsTo: (endpoint) => calls.filter((call) => PATHS[call.path] === endpoint),
    script: (endpoint, ...behaviours) => {
      queues[endpoint].push(...behaviours);
    },
    setDefault: (endpoint, behaviour) => {
      defaults[endpoint] = behaviour;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The fake's embedding of a text: a signed, hashed bag of its lower-cased words projected onto
 * `dimension` numbers, L2-normalised. Texts that share words point the same way, so "similar
 * text, similar vector" holds, and it is the same on every run and every machine.
 */
export function fakeEmbedding(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  const words = wordsOf(text);
  // A text without words still gets a direction, as a real model would give it.
  if (words.length === 0) vector[0] = 1;
  for (const word of words) {
    const hash = fnv1a(word);
    const at = hash % dimension;
    vector[at] = (vector[at] as number) + (hash & 0x8000_0000 ? -1 : 1);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((n) => n / norm);
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** 32-bit FNV-1a: tiny, stable, and spreads short words well enough for a test model. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function embeddingsAnswer(body: any, dimension: number, fault?: 'wrongDimension' | 'wrongCount' | 'reversed') {
  const input: unknown[] = Array.isArray(body?.input) ? body.input : [body?.input];
  const texts = input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  let data = texts.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text, dimension) }));
  if (fault === 'wrongDimension') data.at(-1)?.embedding.push(0);
  if (fault === 'wrongCount') data = data.slice(0, -1);
  if (fault === 'reversed') data.reverse();
  const tokens = texts.reduce((sum, text) => sum + wordsOf(text).length, 0);
  return { object: 'list', data, model: body?.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

let completionCount = 0;

function chatCompletion(body: any, answer: Partial<ChatAnswer>) {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const content =
    typeof answer.content === 'function' ? answer.content(body) : (answer.content ?? messageText(messages.at(-1)));
  const usage = answer.usage ?? {
    prompt_tokens: messages.reduce((sum: number, message) => sum + wordsOf(messageText(message)).length, 0),
    completion_tokens: wordsOf(content).length,
  };
  return {
    id: `chatcmpl-fake-${++completionCount}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body?.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content },
        finish_reason: answer.finishReason ?? 'stop',
        logprobs: null,
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** A message's text: a plain string, or the text parts of a content array. */
function messageText(message: any): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value));
}

/** OpenAI's error body: `{ error: { message, type, code } }`. */
function sendError(res: ServerResponse, status: number, message: string, retryAfter?: number | string): void {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  send(res, status, JSON.stringify({ error: { message, type, code: null, param: null } }), headers);
}
