// A provider's failure as the client sees it: 503 PROVIDER_UNAVAILABLE with the provider's wait
// (Retry-After, both forms), or 502 PROVIDER_ERROR, through the real error handler (design §4.1, §10.3).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { registerErrorHandling } from '../../src/http/plugins/error-handler.js';
import { ProviderError, providerAppError } from '../../src/providers/index.js';
import { parseRetryAfter } from '../../src/providers/retry-after.js';

describe('provider errors', () => {
  describe('parseRetryAfter', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    it('reads delta-seconds', () => {
      assert.equal(parseRetryAfter('120', now), 120);
      assert.equal(parseRetryAfter(' 0 ', now), 0);
    });
    it('reads an HTTP-date as the seconds until it, rounded up', () => {
      assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now), 30);
      assert.equal(parseRetryAfter(new Date(now + 1_500).toUTCString(), now), 1);
    });
    it('a date already past means now', () => {
      assert.equal(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now), 0);
    });
    it('ignores what is neither', () => {
      for (const value of [undefined, null, '', 'soon', '-5', '1.5', '2025-01-01', 'Wed, 99 Foo 2025']) {
        assert.equal(parseRetryAfter(value, now), undefined, String(value));
      }
    });
  });

  describe('providerAppError', () => {
    it('unavailable is 503 PROVIDER_UNAVAILABLE, with retry_after in whole seconds of at least 1', () => {
      const error = providerAppError(
        new ProviderError('unavailable', 'x', { service: 'embeddings', status: 429, retryAfterSeconds: 0 }),
      );
      assert.equal(error.code, 'PROVIDER_UNAVAILABLE');
      assert.equal(error.status, 503);
      assert.deepEqual(error.details, { provider: 'embeddings', retry_after: 1 });
    });
    it('unavailable without a known wait has no retry_after', () => {
      const error = providerAppError(new ProviderError('unavailable', 'x', { service: 'llm' }));
      assert.deepEqual(error.details, { provider: 'llm' });
    });
    it('error is 502 PROVIDER_ERROR', () => {
      const error = providerAppError(new ProviderError('error', 'x', { service: 'embeddings', status: 400 }));
      assert.equal(error.code, 'PROVIDER_ERROR');
      assert.equal(error.status, 502);
    });
    it("keeps the provider's own message (internal hosts, quoted text) from the client", () => {
      const error = providerAppError(
        new ProviderError('error', 'embeddings provider at http://10.0.0.7:11434 refused', { service: 'embeddings' }),
      );
      assert.ok(!error.message.includes('10.0.0.7'));
    });
  });

  describe('through the error handler', () => {
    async function answerTo(thrown: ProviderError) {
      const app = Fastify({ logger: false });
      registerErrorHandling(app);
      app.get('/fails', async () => {
        throw thrown;
      });
      try {
        return await app.inject({ method: 'GET', url: '/fails' });
      } finally {
        await app.close();
      }
    }

    it('503 with the Retry-After header equal to retry_after, in the body twice', async () => {
      const response = await answerTo(
        new ProviderError('unavailable', 'embeddings provider answered 429', {
          service: 'embeddings',
          status: 429,
          retryAfterSeconds: 7,
        }),
      );
      assert.equal(response.statusCode, 503);
      assert.equal(response.headers['retry-after'], '7');
      const body = response.json();
      assert.equal(body.error.code, 'PROVIDER_UNAVAILABLE');
      assert.equal(body.error.details.retry_after, 7);
      assert.equal(body.retry_after, 7);
    });

    it('502 without Retry-After', async () => {
      const response = await answerTo(new ProviderError('error', 'bad answer', { service: 'llm' }));
      assert.equal(response.statusCode, 502);
      assert.equal(response.headers['retry-after'], undefined);
      assert.equal(response.json().error.code, 'PROVIDER_ERROR');
    });
  });
});
