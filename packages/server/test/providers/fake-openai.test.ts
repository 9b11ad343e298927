// The fake provider itself: other suites trust it to speak the OpenAI protocol, to follow its
// script call by call, and to give similar texts similar vectors, so those promises are tested here.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { cosineOfNormalized, l2Normalize } from '../../src/providers/index.js';
import { behave, fakeEmbedding, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js';

describe('fake OpenAI-compatible provider', () => {
  let fake: FakeOpenAI;
  before(async () => {
    fake = await startFakeOpenAI();
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.calls.length = 0;
  });

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${fake.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };

  describe('embeddings', () => {
    it('listens on 127.0.0.1 with a base URL ending in /v1', () => {
      assert.match(fake.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    });

    it('answers in the OpenAI shape, one vector per input, and records the call', async () => {
      const { status, body } = await post(
        '/embeddings',
        { model: 'm', input: ['a b', 'c'] },
        { authorization: 'Bearer k' },
      );
      assert.equal(status, 200);
      assert.equal(body.object, 'list');
      assert.equal(body.model, 'm');
      assert.deepEqual(
        body.data.map((d: any) => [d.object, d.index, d.embedding.length]),
        [
          ['embedding', 0, 64],
          ['embedding', 1, 64],
        ],
      );
      assert.deepEqual(body.usage, { prompt_tokens: 3, total_tokens: 3 });
      assert.equal(fake.calls.length, 1);
      assert.equal(fake.calls[0]?.path, '/v1/embeddings');
      assert.equal(fake.calls[0]?.headers.authorization, 'Bearer k');
      assert.deepEqual(fake.calls[0]?.body, { model: 'm', input: ['a b', 'c'] });
    });

    it('takes a single string as input too', async () => {
      const { body } = await post('/embeddings', { model: 'm', input: 'one text' });
      assert.equal(body.data.length, 1);
    });

    it('gives the same text the same unit vector, every time', () => {
      const a = fakeEmbedding('The graph finds what words miss', 64);
      assert.deepEqual(a, fakeEmbedding('the GRAPH finds what words miss!', 64));
      assert.ok(Math.abs(Math.hypot(...a) - 1) < 1e-9);
    });

    it('gives texts sharing words a higher cosine than texts sharing none', () => {
      const vector = (text: string) => l2Normalize(fakeEmbedding(text, 256));
      const query = vector('postgres full text search ranking');
      const close = cosineOfNormalized(query, vector('ranking search results in postgres'));
      const far = cosineOfNormalized(query, vector('a recipe for lemon cake with butter'));
      assert.ok(close > far + 0.3, `close ${close} vs far ${far}`);
    });

    it('gives a text without words a direction anyway', () => {
      assert.equal(Math.hypot(...fakeEmbedding('  ...  ', 8)), 1);
    });

    it('the dimension is configurable', async () => {
      const small = await startFakeOpenAI({ dimension: 3 });
      try {
        const response = await fetch(`${small.url}/embeddings`, { method: 'POST', body: '{"input":["x"]}' });
        const body = (await response.json()) as any;
        assert.equal(body.data[0].embedding.length, 3);
        assert.equal(small.dimension, 3);
      } finally {
        await small.close();
      }
    });
  });

  describe('script', () => {
    it('is consumed one behaviour per call, then the default applies', async () => {
      fake.script('embeddings', behave.status(500), behave.status(429, { retryAfter: 3 }));
      const first = await post('/embeddings', { input: ['x'] });
      const second = await post('/embeddings', { input: ['x'] });
      const third = await post('/embeddings', { input: ['x'] });
      assert.equal(first.status, 500);
      assert.equal(first.body.error.type, 'server_error');
      assert.equal(second.status, 429);
      assert.equal(second.headers.get('retry-after'), '3');
      assert.equal(third.status, 200);
    });

    it('each endpoint has its own queue and default', async () => {
      fake.script('chat', behave.status(400));
      fake.setDefault('embeddings', behave.status(503));
      try {
        assert.equal((await post('/embeddings', { input: ['x'] })).status, 503);
        assert.equal((await post('/chat/completions', { messages: [] })).status, 400);
        assert.equal((await post('/embeddings', { input: ['x'] })).status, 503);
      } finally {
        fake.setDefault('embeddings', behave.ok());
      }
    });

    it('delay answers late', async () => {
      fake.script('embeddings', behave.delay(150));
      const started = Date.now();
      assert.equal((await post('/embeddings', { input: ['x'] })).status, 200);
      assert.ok(Date.now() - started >= 140);
    });

    it('reset closes the connection without an answer, after recording the call', async () => {
      fake.script('embeddings', behave.reset());
      await assert.rejects(post('/embeddings', { input: ['x'] }), TypeError);
      assert.equal(fake.calls.length, 1);
    });

    it('cutOff starts a 200 and resets the connection halfway through the body', async () => {
      fake.script('embeddings', behave.cutOff());
      const response = await fetch(`${fake.url}/embeddings`, { method: 'POST', body: '{"input":["x"]}' });
      assert.equal(response.status, 200);
      await assert.rejects(response.text(), TypeError);
    });

    it('invalidJson is a 200 whose body does not parse', async () => {
      fake.script('embeddings', behave.invalidJson());
      const response = await fetch(`${fake.url}/embeddings`, { method: 'POST', body: '{"input":["x"]}' });
      assert.equal(response.status, 200);
      await assert.rejects(response.json(), SyntaxError);
    });

    it('wrongDimension lengthens the last vector, wrongCount drops one, reversed lists them backwards', async () => {
      fake.script('embeddings', behave.wrongDimension(), behave.wrongCount(), behave.reversed());
      const input = { input: ['a', 'b', 'c'] };
      const dims = (await post('/embeddings', input)).body.data.map((d: any) => d.embedding.length);
      assert.deepEqual(dims, [64, 64, 65]);
      assert.equal((await post('/embeddings', input)).body.data.length, 2);
      assert.deepEqual(
        (await post('/embeddings', input)).body.data.map((d: any) => d.index),
        [2, 1, 0],
      );
    });
  });

  describe('chat completions', () => {
    const messages = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'echo me back' },
    ];

    it('by default echoes the last message, in the OpenAI shape', async () => {
      const { status, body } = await post('/chat/completions', { model: 'chat-model', messages });
      assert.equal(status, 200);
      assert.equal(body.object, 'chat.completion');
      assert.equal(body.model, 'chat-model');
      assert.deepEqual(body.choices[0].message, { role: 'assistant', content: 'echo me back' });
      assert.equal(body.choices[0].finish_reason, 'stop');
      assert.deepEqual(body.usage, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });
    });

    it('answers as scripted: content, finish_reason, usage', async () => {
      fake.script(
        'chat',
        behave.answer({
          content: '{"insights": [',
          finishReason: 'length',
          usage: { prompt_tokens: 100, completion_tokens: 50 },
        }),
      );
      const { body } = await post('/chat/completions', { messages });
      assert.equal(body.choices[0].message.content, '{"insights": [');
      assert.equal(body.choices[0].finish_reason, 'length');
      assert.deepEqual(body.usage, { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 });
    });

    it('content can be made from the request', async () => {
      fake.script('chat', behave.answer({ content: (request) => `${request.messages.length} messages` }));
      const { body } = await post('/chat/completions', { messages });
      assert.equal(body.choices[0].message.content, '2 messages');
    });

    it('delay can lead to any behaviour of the endpoint', async () => {
      fake.script('chat', behave.delay(20, behave.answer({ content: 'late' })));
      assert.equal((await post('/chat/completions', { messages })).body.choices[0].message.content, 'late');
    });
  });

  describe('protocol edges', () => {
    it('an unknown path is a 404 in the OpenAI error shape', async () => {
      const { status, body } = await post('/models/nope', {});
      assert.equal(status, 404);
      assert.equal(body.error.type, 'invalid_request_error');
    });

    it('a GET is a 405', async () => {
      const response = await fetch(`${fake.url}/embeddings`);
      assert.equal(response.status, 405);
    });

    it('with apiKey, a request without that bearer key is a 401', async () => {
      const locked = await startFakeOpenAI({ apiKey: 'sk-right' });
      try {
        const send = (authorization?: string) =>
          fetch(`${locked.url}/embeddings`, {
            method: 'POST',
            headers: authorization ? { authorization } : {},
            body: '{"input":["x"]}',
          });
        assert.equal((await send()).status, 401);
        assert.equal((await send('Bearer sk-wrong')).status, 401);
        assert.equal((await send('Bearer sk-right')).status, 200);
      } finally {
        await locked.close();
      }
    });

    it('close() ends even with a call still waiting on a delay', async () => {
      const other = await startFakeOpenAI();
      other.script('embeddings', behave.delay(60_000));
      const pending = fetch(`${other.url}/embeddings`, { method: 'POST', body: '{"input":["x"]}' }).catch(
        (e: unknown) => e,
      );
      while (other.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      await other.close();
      assert.ok((await pending) instanceof TypeError);
    });
  });
});
