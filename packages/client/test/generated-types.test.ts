import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { GENERATED_TYPES, generatedTypesText } from '../scripts/openapi-source.js';

describe('generated types', () => {
  it('src/generated/openapi.ts is what the current server generates (else: npm run generate -w packages/client)', async () => {
    const committed = readFileSync(GENERATED_TYPES, 'utf8');
    const current = await generatedTypesText();
    assert.ok(
      committed === current,
      'the client types have drifted from the server: run `npm run generate -w packages/client` and commit the result',
    );
  });
});
