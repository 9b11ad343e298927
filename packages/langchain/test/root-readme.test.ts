// The repository README's "Use it from…" snippets for LangChain and the AI SDK, run as written
// against a live server, each from its package's folder (where its imports resolve).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { runExample } from './readme.js';
import { liveSuite } from './support.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The first ```js block after the README heading `### <heading>`. */
function snippetUnder(heading: string): string {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const at = readme.indexOf(`\n### ${heading}\n`);
  assert.ok(at >= 0, `README.md has no "### ${heading}" section`);
  const block = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(block, `README.md's "${heading}" section has no js example`);
  return block[1]!;
}

describe("the repository README's LangChain and AI SDK snippets", () => {
  const live = liveSuite();
  const env = () => ({ url: live.server.baseUrl, key: live.key.key });

  it('LangChain: the retriever finds the snapshot the snippet made', async () => {
    const out = await runExample(snippetUnder('LangChain'), `${root}packages/langchain`, env());
    assert.equal(out.trim(), 'Compounding');
  });

  it('AI SDK: recall finds what remember kept', async () => {
    const out = await runExample(snippetUnder('The Vercel AI SDK'), `${root}packages/ai-sdk`, env());
    assert.equal(out.trim(), 'The user lives in Lyon');
  });
});
