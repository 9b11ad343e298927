// The embeddings provider against a real OpenAI-compatible HTTP server (the fake), through every
// way a provider answers: well, late, refusing, broken, or not at all (design §10.3).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { EmbeddingsSettings } from '../../src/config.js';
import { ProviderError, createEmbeddingProvider, probeEmbeddingProvider } from '../../src/providers/index.js';
import {
  behave,
  fakeEmbedding,
  startFakeOpenAI,
  type EmbeddingsBehaviour,
  type FakeOpenAI,
} from '../helpers/fake-openai.js';

const KEY = 'sk-test-0123456789abcdefSECRET';

describe('embeddings provider', () => {
  let fake: FakeOpenAI;
  before(async () => {
    fake = await startFakeOpenAI({ dimension: 32 });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.calls.length = 0;
  });

  const settings = (overrides: Partial<EmbeddingsSettings> = {}): EmbeddingsSettings => ({
    baseUrl: fake.url,
    apiKey: undefined,
    model: 'test-embedding',
    timeoutMs: 5_000,
    batchSize: 64,
    ...overrides,
  });

  /** The ProviderError `promise` rejects with, failing the test if it resolves or rejects otherwise. */
  async function failure(promise: Promise<unknown>): Promise<ProviderError> {
    const err = await promise.then(
      () => assert.fail('expected a ProviderError'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ProviderError, `expected a ProviderError, got ${String(err)}`);
    return err;
  }

  function assertVectorOf(vector: Float32Array | undefined, text: string) {
    assert.ok(vector, `a vector for "${text}"`);
    const expected = fakeEmbedding(text, fake.dimension);
    assert.equal(vector.length, expected.length);
    vector.forEach((n, i) => assert.ok(Math.abs(n - (expected[i] as number)) < 1e-6, `"${text}" at ${i}`));
  }

  describe('success', () => {
    it('posts { model, input } to /embeddings and gives one unit vector per text, in order, with the tokens', async () => {
      const texts = ['graphs of beliefs', 'edges between snapshots', 'a third text'];
      const result = await createEmbeddingProvider(settings()).embed(texts);

      assert.equal(result.vectors.length, 3);
      texts.forEach((text, i) => assertVectorOf(result.vectors[i], text));
      for (const vector of result.vectors) {
        assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-6, 'unit length');
      }
      assert.equal(result.tokens, 9);
      assert.equal(fake.calls.length, 1);
      assert.equal(fake.calls[0]?.path, '/v1/embeddings');
      assert.equal(fake.calls[0]?.method, 'POST');
      assert.deepEqual(fake.calls[0]?.body, { model: 'test-embedding', input: texts });
      assert.match(String(fake.calls[0]?.headers['content-type']), /^application\/json/);
    });

    it('orders the vectors by `index`, not by their place in the answer', async () => {
      fake.script('embeddings', behave.reversed());
      const texts = ['first text', 'second one', 'third words'];
      const result = await createEmbeddingProvider(settings()).embed(texts);
      texts.forEach((text, i) => assertVectorOf(result.vectors[i], text));
    });

    it('splits input longer than the batch size into several calls, in order, adding up the tokens', async () => {
      const texts = ['one', 'two', 'three', 'four', 'five'];
      const result = await createEmbeddingProvider(settings({ batchSize: 2 })).embed(texts);

      assert.deepEqual(
        fake.calls.map((call) => call.body.input),
        [['one', 'two'], ['three', 'four'], ['five']],
      );
      texts.forEach((text, i) => assertVectorOf(result.vectors[i], text));
      assert.equal(result.tokens, 5);
    });

    it('makes no call for no texts', async () => {
      assert.deepEqual(await createEmbeddingProvider(settings()).embed([]), { vectors: [], tokens: 0 });
      assert.equal(fake.calls.length, 0);
    });

    it('accepts a base URL with a trailing slash', async () => {
      await createEmbeddingProvider(settings({ baseUrl: `${fake.url}/` })).embed(['x']);
      assert.equal(fake.calls[0]?.path, '/v1/embeddings');
    });

    it('counts 0 tokens when the answer has no usage', async () => {
      const body = JSON.stringify({ data: [{ index: 0, embedding: [3, 4] }] });
      fake.script('embeddings', behave.raw(200, body));
      const result = await createEmbeddingProvider(settings()).embed(['x']);
      assert.equal(result.tokens, 0);
      assert.deepEqual([...(result.vectors[0] ?? [])], [0.6000000238418579, 0.800000011920929]);
    });
  });

  describe('dimension', () => {
    it('probeEmbeddingProvider embeds one short text and returns a provider that knows the dimension', async () => {
      const provider = await probeEmbeddingProvider(settings());
      assert.equal(provider.dimension, 32);
      assert.equal(provider.model, 'test-embedding');
      assert.equal(fake.calls.length, 1);
      assert.equal(fake.calls[0]?.body.input.length, 1);
    });

    it('a provider made without a dimension reads 0 until its first answer fixes it', async () => {
      const provider = createEmbeddingProvider(settings());
      assert.equal(provider.dimension, 0);
      await provider.embed(['x']);
      assert.equal(provider.dimension, 32);
    });

    it('once known, an answer of another dimension is an error', async () => {
      const provider = await probeEmbeddingProvider(settings());
      fake.script('embeddings', behave.wrongDimension());
      const err = await failure(provider.embed(['one text']));
      assert.equal(err.kind, 'error');
      assert.match(err.message, /dimension 33 where 32 was expected/);
    });

    it('a dimension given at creation (that of stored vectors) is required of every answer', async () => {
      const err = await failure(createEmbeddingProvider(settings(), 1536).embed(['x']));
      assert.equal(err.kind, 'error');
      assert.match(err.message, /dimension 32 where 1536 was expected/);
    });

    it('a failed probe says which endpoint and model, and keeps the kind and status', async () => {
      fake.script('embeddings', behave.status(404, { message: 'model "nope" not found' }));
      const refused = await failure(probeEmbeddingProvider(settings({ model: 'nope' })));
      assert.equal(refused.kind, 'error');
      assert.equal(refused.status, 404);
      assert.ok(refused.message.includes(fake.url), refused.message);
      assert.match(refused.message, /model "nope"/);
      assert.match(refused.message, /start-up probe/);
      assert.match(refused.message, /model "nope" not found/);

      fake.script('embeddings', behave.status(503, { retryAfter: 5 }));
      const starting = await failure(probeEmbeddingProvider(settings()));
      assert.equal(starting.kind, 'unavailable');
      assert.equal(starting.retryAfterSeconds, 5);
    });
  });

  describe('Authorization', () => {
    it('is not sent without a key', async () => {
      await createEmbeddingProvider(settings()).embed(['x']);
      assert.equal(fake.calls[0]?.headers.authorization, undefined);
    });

    it('is `Bearer <key>` with one', async () => {
      await createEmbeddingProvider(settings({ apiKey: KEY })).embed(['x']);
      assert.equal(fake.calls[0]?.headers.authorization, `Bearer ${KEY}`);
    });

    it('a provider that requires a key refuses a wrong one with an error, never quoting it', async () => {
      const locked = await startFakeOpenAI({ apiKey: 'sk-the-right-one' });
      try {
        const err = await failure(createEmbeddingProvider(settings({ baseUrl: locked.url, apiKey: KEY })).embed(['x']));
        assert.equal(err.kind, 'error');
        assert.equal(err.status, 401);
        await createEmbeddingProvider(settings({ baseUrl: locked.url, apiKey: 'sk-the-right-one' })).embed(['x']);
      } finally {
        await locked.close();
      }
    });
  });

  describe('unavailable: worth retrying later', () => {
    it('a provider slower than the timeout', async () => {
      fake.script('embeddings', behave.delay(2_000));
      const started = Date.now();
      const err = await failure(createEmbeddingProvider(settings({ timeoutMs: 100 })).embed(['x']));
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, /did not answer within 100 ms/);
      assert.ok(Date.now() - started < 1_500, 'gave up at the timeout, not at the answer');
    });

    it('the timeout is per call: a batched input is not cut short by the sum of its calls', async () => {
      fake.script('embeddings', behave.delay(150), behave.delay(150), behave.delay(150));
      const result = await createEmbeddingProvider(settings({ timeoutMs: 400, batchSize: 1 })).embed(['a', 'b', 'c']);
      assert.equal(result.vectors.length, 3);
    });

    it('500', async () => {
      fake.script('embeddings', behave.status(500));
      const err = await failure(createEmbeddingProvider(settings()).embed(['x']));
      assert.equal(err.kind, 'unavailable');
      assert.equal(err.status, 500);
      assert.equal(err.retryAfterSeconds, undefined);
      assert.match(err.message, /answered 500: fake provider answered 500/);
    });

    it('429 with Retry-After in seconds', async () => {
      fake.script('embeddings', behave.status(429, { retryAfter: 7 }));
      const err = await failure(createEmbeddingProvider(settings()).embed(['x']));
      assert.equal(err.kind, 'unavailable');
      assert.equal(err.status, 429);
      assert.equal(err.retryAfterSeconds, 7);
    });

    it('503 with Retry-After as an HTTP-date', async () => {
      const at = new Date(Date.now() + 30_000).toUTCString();
      fake.script('embeddings', behave.status(503, { retryAfter: at }));
      const err = await failure(createEmbeddingProvider(settings()).embed(['x']));
      assert.equal(err.kind, 'unavailable');
      assert.equal(err.status, 503);
      assert.ok(err.retryAfterSeconds !== undefined && err.retryAfterSeconds >= 28 && err.retryAfterSeconds <= 31);
    });

    it('429 without Retry-After has no wait', async () => {
      fake.script('embeddings', behave.status(429));
      const err = await failure(createEmbeddingProvider(settings()).embed(['x']));
      assert.equal(err.kind, 'unavailable');
      assert.equal(err.retryAfterSeconds, undefined);
    });

    it('a connection reset before the answer', async () => {
      fake.script('embeddings', behave.reset());
      const err = await failure(createEmbeddingProvider(settings()).embed(['x']));
      assert.equal(err.kind, 'unavailable');
      assert.equal(err.status, undefined);
      assert.match(err.message, /could not be reached/);
    });

    it('a connection reset in the middle of the answer', async () => {
      fake.script('embeddings', behave.cutOff());
      const err = await failure(createEmbeddingProvider(settings()).embed(['x']));
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, /broke off its answer/);
    });

    it('a refused connection (nothing listening)', async () => {
      const err = await failure(createEmbeddingProvider(settings({ baseUrl: await closedPortUrl() })).embed(['x']));
      assert.equal(err.kind, 'unavailable');
      assert.match(err.message, /could not be reached \(ECONNREFUSED\)/);
    });
  });

  describe('error: retrying the same call will not help', () => {
    it('400, quoting what the provider said', async () => {
      fake.script('embeddings', behave.status(400, { message: "'$.input' is invalid" }));
      const err = await failure(createEmbeddingProvider(settings()).embed(['x']));
      assert.equal(err.kind, 'error');
      assert.equal(err.status, 400);
      assert.match(err.message, /refused the request with 400: '\$\.input' is invalid/);
    });

    it('a redirect, which is not followed', async () => {
      fake.script('embeddings', behave.raw(307, '', { location: 'http://elsewhere.invalid/v1/embeddings' }));
      const err = await failure(createEmbeddingProvider(settings({ apiKey: KEY })).embed(['x']));
      assert.equal(err.kind, 'error');
      assert.equal(err.status, 307);
      assert.equal(fake.calls.length, 1);
    });

    const broken: [string, () => EmbeddingsBehaviour, RegExp][] = [
      ['a body that is not JSON', () => behave.invalidJson(), /not JSON/],
      ['no data array', () => behave.raw(200, '{"object":"list"}'), /without a data array/],
      ['a number that is not finite', () => rawData([{ index: 0, embedding: [1, null] }]), /finite numbers/],
      ['an empty embedding', () => rawData([{ index: 0, embedding: [] }]), /no list of numbers/],
      ['a missing index', () => rawData([{ embedding: [1, 2] }]), /index undefined/],
      ['an index out of range', () => rawData([{ index: 1, embedding: [1, 2] }]), /index 1 is not one of 0\.\.0/],
    ];
    for (const [name, behaviour, message] of broken) {
      it(name, async () => {
        fake.script('embeddings', behaviour());
        const err = await failure(createEmbeddingProvider(settings()).embed(['x']));
        assert.equal(err.kind, 'error');
        assert.match(err.message, message);
      });
    }

    it('fewer vectors than texts', async () => {
      fake.script('embeddings', behave.wrongCount());
      const err = await failure(createEmbeddingProvider(settings()).embed(['a', 'b', 'c']));
      assert.equal(err.kind, 'error');
      assert.match(err.message, /2 embeddings for 3 texts/);
    });

    it('two vectors for one index', async () => {
      fake.script(
        'embeddings',
        rawData([
          { index: 0, embedding: [1, 2] },
          { index: 0, embedding: [1, 2] },
        ]),
      );
      const err = await failure(createEmbeddingProvider(settings()).embed(['a', 'b']));
      assert.equal(err.kind, 'error');
      assert.match(err.message, /two embeddings for index 0/);
    });

    it('vectors of different dimensions in one answer', async () => {
      fake.script('embeddings', behave.wrongDimension());
      const provider = createEmbeddingProvider(settings());
      const err = await failure(provider.embed(['a', 'b']));
      assert.equal(err.kind, 'error');
      assert.match(err.message, /embedding 1 of dimension 33 where 32 was expected/);
      assert.equal(provider.dimension, 0, 'a rejected answer fixes nothing');
    });
  });

  describe('cancellation', () => {
    it("the caller's abort rejects with its reason, not as a provider failure", async () => {
      fake.script('embeddings', behave.delay(2_000));
      const controller = new AbortController();
      const reason = new Error('shutting down');
      setTimeout(() => controller.abort(reason), 50);
      const err = await createEmbeddingProvider(settings())
        .embed(['x'], controller.signal)
        .catch((e: unknown) => e);
      assert.equal(err, reason);
    });

    it('an aborted signal stops a batched input before its next call', async () => {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(createEmbeddingProvider(settings({ batchSize: 1 })).embed(['a', 'b'], controller.signal));
      assert.equal(fake.calls.length, 0);
    });
  });

  describe('the API key never appears in an error message', () => {
    const quotingTheKey = `Incorrect API key provided: ${KEY}. Find your key at https://example.invalid`;
    const cases: [string, () => EmbeddingsBehaviour][] = [
      ['401 quoting the key', () => behave.status(401, { message: quotingTheKey })],
      ['500 quoting the key', () => behave.status(500, { message: quotingTheKey })],
      ['a 200 that is not JSON and quotes the key', () => behave.raw(200, `oops ${KEY}`)],
      ['a timeout', () => behave.delay(2_000)],
      ['a reset', () => behave.reset()],
      ['a wrong count', () => behave.wrongCount()],
    ];
    for (const [name, behaviour] of cases) {
      it(name, async () => {
        fake.script('embeddings', behaviour(), behaviour());
        const s = settings({ apiKey: KEY, timeoutMs: 200 });
        for (const attempt of [() => createEmbeddingProvider(s).embed(['x']), () => probeEmbeddingProvider(s)]) {
          const err = await failure(attempt());
          assert.ok(!err.message.includes(KEY), err.message);
          assert.ok(!String(err.stack).includes(KEY), 'nor in the stack');
          assert.equal(fake.calls.at(-1)?.headers.authorization, `Bearer ${KEY}`, 'the key was sent');
        }
      });
    }
  });
});

function rawData(data: unknown[]) {
  return behave.raw(200, JSON.stringify({ object: 'list', data, usage: { prompt_tokens: 1, total_tokens: 1 } }));
}

/** The URL of a port that was free a moment ago: nothing listens there, so connecting is refused. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
