import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseLabel, databaseUrlForCommand, isDefaultDatabase } from '../src/database-label.js';
import { bannerText, startInfo } from '../src/start-banner.js';

const config = { host: '0.0.0.0', databaseUrl: './data/snapgraph.db', llm: undefined, embeddings: undefined };

describe('start banner (design §16)', () => {
  it('names the database without a password, and the LLM and embeddings by model and host', () => {
    const url = 'postgres://snap:s3cret@db.internal:5433/graph';
    assert.equal(databaseLabel(url), 'PostgreSQL database graph on db.internal:5433');
    const info = startInfo(
      {
        ...config,
        databaseUrl: url,
        llm: {
          baseUrl: 'http://127.0.0.1:11434/v1',
          model: 'llama3.1',
          apiKey: 'k',
          timeoutMs: 1,
          contextTokens: 4096,
        },
        embeddings: {
          baseUrl: 'https://api.openai.com/v1',
          model: 'text-embedding-3-small',
          apiKey: 'k',
          timeoutMs: 1,
          batchSize: 1,
        },
      },
      8080,
      0,
    );
    const text = bannerText(info);
    assert.doesNotMatch(text, /s3cret/);
    assert.match(text, /Extractor: +LLM llama3\.1 at 127\.0\.0\.1:11434/);
    assert.match(text, /Embeddings: +text-embedding-3-small at api\.openai\.com/);
    assert.match(text, /API: +http:\/\/127\.0\.0\.1:8080\/v1\n/);
    assert.equal(
      info.createKey,
      `DATABASE_URL='postgres://snap:<password>@db.internal:5433/graph' npx snapgraph keys create`,
    );
  });

  it('prints DATABASE_URL only when the database is not the CLI default, as an absolute path', () => {
    assert.equal(startInfo(config, 8080, 0, '/srv/app').createKey, 'npx snapgraph keys create');
    assert.equal(
      startInfo({ ...config, databaseUrl: 'data/snapgraph.db' }, 8080, 0, '/srv/app').createKey,
      'npx snapgraph keys create',
    );
    assert.equal(
      startInfo({ ...config, databaseUrl: 'other.db' }, 8080, 0, '/srv/app').createKey,
      'DATABASE_URL=/srv/app/other.db npx snapgraph keys create',
    );
    assert.equal(startInfo(config, 8080, 1).createKey, undefined);
    assert.ok(isDefaultDatabase('sqlite:./data/snapgraph.db'));
    assert.equal(databaseUrlForCommand('postgres://u@h/db'), 'postgres://u@h/db');
    assert.doesNotMatch(bannerText(startInfo(config, 8080, 1)), /No API key/);
  });
});
