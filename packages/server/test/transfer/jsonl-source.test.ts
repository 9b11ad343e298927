// The NDJSON reader splits lines as readline does (CRLF, LF or a lone CR; a last line without a
// break), whatever the chunks the file is read in cut: a CRLF, a multi-byte character or a long
// line across chunks.
import assert from 'node:assert/strict';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { jsonLines } from '../../src/domain/transfer/jsonl-source.js';
import { seededRandom } from '../extraction/fixtures.js';

describe('jsonLines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapgraph-jsonl-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'lines.jsonl');

  const readlineLines = async () => {
    const lines: string[] = [];
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) lines.push(line);
    return lines;
  };
  const ourLines = async (chunkBytes?: number) => {
    const lines: string[] = [];
    for await (const line of jsonLines(file, { bytesRead: 0 }, (raw) => lines.push(raw), chunkBytes)) void line;
    return lines;
  };

  it('reads the lines readline reads, in chunks of any size', async () => {
    const random = seededRandom(11);
    const pieces = ['a', '{}', '"x"', '\n', '\r', '\r\n', '\uFEFF', 'é', '😀', ' '];
    for (let i = 0; i < 400; i++) {
      const text = Array.from(
        { length: Math.floor(random() * 24) },
        () => pieces[Math.floor(random() * pieces.length)],
      );
      writeFileSync(file, text.join(''));
      const expected = await readlineLines();
      for (const chunkBytes of [1, 2, 3, 5, 64]) {
        assert.deepEqual(
          await ourLines(chunkBytes),
          expected,
          `${JSON.stringify(text.join(''))} in ${chunkBytes}-byte chunks`,
        );
      }
    }
  });

  it('a line longer than many chunks is one line, parsed', async () => {
    writeFileSync(file, `{"kind":"x","data":"${'y'.repeat(10_000)}"}\r\n{"kind":"end"}`);
    const parsed: { kind: string; data?: string }[] = [];
    for await (const line of jsonLines(file, { bytesRead: 0 }, undefined, 7)) {
      assert.equal(line.error, undefined);
      if (line.error === undefined) parsed.push(line.value as { kind: string; data?: string });
    }
    assert.deepEqual(
      parsed.map((record) => record.kind),
      ['x', 'end'],
    );
    assert.equal(parsed[0]?.data?.length, 10_000);
  });
});
