// GraphML is read within bounds (graphml.ts, GRAPHML_LIMITS): a value the parser would hold
// whole, however long, is refused once it passes the bound, not after it has all been read.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { GRAPHML_LIMITS, graphmlLines } from '../../src/domain/transfer/graphml.js';

describe('GraphML bounds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapgraph-graphml-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const errorsOf = async (xml: string) => {
    const file = join(dir, 'g.graphml');
    writeFileSync(file, xml);
    const position = { bytesRead: 0 };
    const errors: { error: string; readAt: number }[] = [];
    for await (const line of graphmlLines(file, position)) {
      if (line.error !== undefined) errors.push({ error: line.error, readAt: position.bytesRead });
    }
    return errors;
  };
  const head = '<?xml version="1.0"?><graphml><graph id="brain_01M8H3BKZ6Y76QAK61JVS5R000"><node id="n"><data key="k">';

  it('a value past the bound fails while the file is still being read', async () => {
    const size = GRAPHML_LIMITS.valueCharacters * 3;
    const errors = await errorsOf(`${head}${'v'.repeat(size)}</data></node></graph></graphml>`);
    assert.equal(errors.length, 1, JSON.stringify(errors.map((e) => e.error)));
    assert.match(errors[0]!.error, /longer than 1000000 characters/);
    assert.ok(errors[0]!.readAt < size, `refused after ${errors[0]!.readAt} of ${size} bytes`);
  });

  it('a value within the bound is read', async () => {
    const value = 'v'.repeat(20_000);
    assert.deepEqual(await errorsOf(`${head}${value}</data></node></graph></graphml>`), []);
  });
});
