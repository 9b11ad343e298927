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

  it('reads 100,000 characters, the most crystallize takes, into insights', () => {
    // Its speed is measured by bench/extraction.mjs (docs/performance.md), not timed here.
    let text = '';
    for (let seed = 1; text.length < 100_000; seed++) text += `${generatedText(seed, 30)}\n\n`;
    text = text.slice(0, 100_000);
    const snapshots = extractSnapshots(text);
    assert.ok(snapshots.length > 10, `${snapshots.length} insights`);
  });
});
