// The language model is loaded on the first extraction, never at import (the CLI and a server
// that never extracts do not pay for it), and 100,000 characters are read in reasonable time.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { extractSnapshots } from '../../src/domain/extraction/index.js';
import { generatedText } from './fixtures.js';

const run = promisify(execFile);
const ENTRY = fileURLToPath(new URL('../../src/domain/extraction/index.ts', import.meta.url));

const PROBE = `
import { createRequire } from 'node:module';
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('wink-'));
const extraction = await import(${JSON.stringify(ENTRY)});
const atImport = loaded();
extraction.chunkText('A short text that fits.', 100);
const afterShortChunk = loaded();
extraction.extractSnapshots('I believe that small teams ship faster than large committees.');
console.log(JSON.stringify({ atImport, afterShortChunk, afterExtraction: loaded() }));
`;

describe('extraction: loading and speed', () => {
  it('loads the model on first use only', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE]);
    assert.deepEqual(JSON.parse(stdout), { atImport: false, afterShortChunk: false, afterExtraction: true });
  });

  it('reads 100,000 characters in a few seconds at most, even on a busy machine', () => {
    let text = '';
    for (let seed = 1; text.length < 100_000; seed++) text += `${generatedText(seed, 30)}\n\n`;
    text = text.slice(0, 100_000);
    extractSnapshots('Warm-up: the model loads here, not in the measurement below.');
    const started = performance.now();
    const snapshots = extractSnapshots(text);
    const elapsed = performance.now() - started;
    assert.ok(snapshots.length > 0);
    // The figure on a quiet machine is in docs/performance.md (well under a second); this bound
    // only catches a slip into quadratic work, which would take minutes here.
    assert.ok(elapsed < 5_000, `${Math.round(elapsed)} ms`);
  });
});
