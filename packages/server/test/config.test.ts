// The embeddings settings' rules (DESIGN 4.3): none by default, defaults when a base URL is
// set, and a clear refusal at start for a setting that cannot work.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('config: embeddings', () => {
  it('without EMBEDDINGS_BASE_URL there is no provider', () => {
    assert.equal(loadConfig({}).embeddings, undefined);
    assert.equal(loadConfig({ EMBEDDINGS_BASE_URL: '' }).embeddings, undefined);
  });

  it('with only a base URL: no key, the default model, timeout and batch size', () => {
    assert.deepEqual(loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434/v1' }).embeddings, {
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'text-embedding-3-small',
      timeoutMs: 10_000,
      batchSize: 64,
    });
  });

  it('reads every setting, and drops a trailing slash from the base URL', () => {
    const config = loadConfig({
      EMBEDDINGS_BASE_URL: 'https://api.openai.com/v1/',
      EMBEDDINGS_API_KEY: 'sk-x',
      EMBEDDINGS_MODEL: 'text-embedding-3-large',
      EMBEDDINGS_TIMEOUT_MS: '2500',
      EMBEDDINGS_BATCH_SIZE: '2048',
    });
    assert.deepEqual(config.embeddings, {
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-x',
      model: 'text-embedding-3-large',
      timeoutMs: 2500,
      batchSize: 2048,
    });
  });

  const refused: [string, NodeJS.ProcessEnv, RegExp][] = [
    ['a URL that is not http(s)', { EMBEDDINGS_BASE_URL: 'ftp://example.com/v1' }, /http:\/\/ or https:\/\//],
    ['no URL at all', { EMBEDDINGS_BASE_URL: 'localhost:11434/v1' }, /http:\/\/ or https:\/\//],
    ['credentials in the URL', { EMBEDDINGS_BASE_URL: 'https://me:sk-x@example.com/v1' }, /EMBEDDINGS_API_KEY/],
    ['a query in the URL', { EMBEDDINGS_BASE_URL: 'https://example.com/v1?api-version=1' }, /query or fragment/],
    ['a timeout of 0', { EMBEDDINGS_BASE_URL: 'http://h/v1', EMBEDDINGS_TIMEOUT_MS: '0' }, /EMBEDDINGS_TIMEOUT_MS/],
    ['a batch size of 0', { EMBEDDINGS_BASE_URL: 'http://h/v1', EMBEDDINGS_BATCH_SIZE: '0' }, /EMBEDDINGS_BATCH_SIZE/],
    [
      'a batch over 2048',
      { EMBEDDINGS_BASE_URL: 'http://h/v1', EMBEDDINGS_BATCH_SIZE: '2049' },
      /EMBEDDINGS_BATCH_SIZE/,
    ],
    ['a batch size in hex', { EMBEDDINGS_BASE_URL: 'http://h/v1', EMBEDDINGS_BATCH_SIZE: '0x40' }, /plain decimal/],
    ['a key without a base URL', { EMBEDDINGS_API_KEY: 'sk-x' }, /EMBEDDINGS_API_KEY is set but EMBEDDINGS_BASE_URL/],
    ['a model without a base URL', { EMBEDDINGS_MODEL: 'm' }, /EMBEDDINGS_MODEL is set but EMBEDDINGS_BASE_URL/],
  ];
  for (const [name, env, message] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && message.test(err.message),
      );
    });
  }

  it('never quotes the API key in a refusal', () => {
    assert.throws(
      () => loadConfig({ EMBEDDINGS_BASE_URL: 'nope', EMBEDDINGS_API_KEY: 'sk-secret-123' }),
      (err: unknown) => err instanceof ConfigError && !err.message.includes('sk-secret-123'),
    );
  });
});
