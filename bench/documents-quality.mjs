// Real documents through POST /v1/ingest, as a user sends them (design §13.4): every Markdown,
// text or transcript file of a directory is ingested into a brain of its own on `snapgraph serve`
// (SQLite, built-in extractor), and each snapshot's name and core are classified: knowledge, or
// noise with a reason (markup, code, table, link, diagram, stub). Targets: at most 5 % noise,
// and every document yields knowledge. The documents are read from the directory given, never
// from this repository (their text is other projects'; docs/extraction.md names those used).
//   npm run build && nice -n 10 node bench/documents-quality.mjs DIR [--verbose]
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { runMain } from './lib/cleanup.mjs';
import { requestJson } from './lib/http.mjs';
import { prepareDatabase, startSnapgraph } from './lib/server.mjs';

const dir = process.argv[2];
const VERBOSE = process.argv.includes('--verbose');
const EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.vtt', '.srt']);

/** Why a snapshot's name or core is not knowledge, or null when it is. */
export function noiseReason({ name, core }) {
  const text = `${name}\n${core}`;
  if (/^\s*\|.*\|\s*$/m.test(text) || /\|\s*:?-{3,}/.test(text)) return 'table';
  if (/[\u2500-\u259f]|[►▼◄▲]/u.test(text)) return 'diagram';
  if (/https?:\/\/|www\.|\]\(|\[[^\]]*\]\[/.test(text)) return 'link';
  if (/```|~~~|^\s*(?:\$ |npm |npx |pnpm |yarn |pip |git |docker |curl |cd |sudo )/m.test(text)) return 'code';
  if (/[{};]\s*$|=>|\(\)\s*[;{]|^\s*(?:const|let|var|import|from|def|class|function|return)\s/m.test(core))
    return 'code';
  if (/<\/?[a-z][\w-]*[\s>/]|!\[|^#{1,6}\s|\*\*|__\w/m.test(text)) return 'markup';
  const words = core.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length < 4 || /:\s*$/.test(core.trim())) return 'stub';
  return null;
}

async function main() {
  if (!dir) throw new Error('usage: node bench/documents-quality.mjs DIR');
  const files = readdirSync(dir)
    .filter((f) => EXTENSIONS.has(extname(f).toLowerCase()))
    .sort();
  const db = prepareDatabase();
  const server = await startSnapgraph({ databaseUrl: db.databaseUrl, env: {} });
  const headers = { authorization: `Bearer ${db.key}` };
  const totals = { snapshots: 0, noise: 0, empty: 0, reasons: {} };
  try {
    console.log('document                                  bytes  snapshots  noise');
    for (const file of files) {
      const content = readFileSync(join(dir, file), 'utf8');
      const brain = await requestJson('POST', `${server.base}/v1/brains`, { headers, body: { name: file } });
      const body = await requestJson('POST', `${server.base}/v1/ingest`, {
        headers,
        body: { content: content.slice(0, 1_000_000), title: file, brain_id: brain.data.id },
        timeoutMs: 300_000,
      });
      const snapshots = body.data.snapshots;
      const noisy = snapshots.map((s) => [s, noiseReason(s)]).filter(([, reason]) => reason !== null);
      totals.snapshots += snapshots.length;
      totals.noise += noisy.length;
      if (snapshots.length - noisy.length === 0) totals.empty++;
      for (const [, reason] of noisy) totals.reasons[reason] = (totals.reasons[reason] ?? 0) + 1;
      console.log(
        `${file.padEnd(40)} ${String(content.length).padStart(7)} ${String(snapshots.length).padStart(10)} ${String(noisy.length).padStart(6)}`,
      );
      if (VERBOSE) {
        for (const s of snapshots)
          console.log(`    ${noiseReason(s) ?? 'ok'.padEnd(7)}  ${s.name}  ||  ${s.core.slice(0, 140)}`);
      }
    }
  } finally {
    await server.stop();
  }
  const share = totals.snapshots === 0 ? 0 : totals.noise / totals.snapshots;
  console.log(
    `\n${files.length} documents, ${totals.snapshots} snapshots, ${totals.noise} noise (${(share * 100).toFixed(1)} %; target <= 5 %: ${share <= 0.05 ? 'met' : 'MISSED'}) ` +
      `${JSON.stringify(totals.reasons)}; documents without knowledge: ${totals.empty} (target 0: ${totals.empty === 0 ? 'met' : 'MISSED'})`,
  );
}

await runMain(main);
