import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';
import { EDGE_COLUMNS, SNAPSHOT_COLUMNS } from '../../store/columns.js';
import { END_KIND, FORMAT_NAME, FORMAT_VERSION, type ExportRecord } from './format.js';
import type { ReadPosition, SourceLine } from './jsonl-source.js';

/**
 * GraphML, for graph tools (Gephi, yEd, Cytoscape, NetworkX): the brain is the graph, snapshots
 * are nodes and edges are edges, every field a `<data>` element. Tombstones (and, later,
 * memories and knowledge) have no place in a graph and are left out; JSON fields (tags,
 * emotion) are JSON text. Snapgraph reads back GraphML that has these keys — its own, or a
 * graph edited elsewhere that kept them.
 */
const NAMESPACE = 'http://graphml.graphdrawing.org/xmlns';

type AttrType = 'string' | 'double' | 'boolean';
interface Key {
  id: string;
  for: 'graph' | 'node' | 'edge';
  name: string;
  type: AttrType;
}

const BRAIN_FIELDS = ['name', 'account_id', 'auto_link', 'created_at', 'updated_at'] as const;
const NODE_FIELDS = SNAPSHOT_COLUMNS.filter((c) => c !== 'id' && c !== 'brain_id');
const EDGE_FIELDS = EDGE_COLUMNS.filter((c) => !['id', 'brain_id', 'source_id', 'target_id'].includes(c));
const JSON_FIELDS = new Set(['tags', 'emotion']);
const NUMBER_FIELDS = new Set(['confidence', 'significance_score', 'strength']);

const KEYS: Key[] = [
  ...BRAIN_FIELDS.map((name) => ({
    id: `brain_${name}`,
    for: 'graph' as const,
    name,
    type: (name === 'auto_link' ? 'boolean' : 'string') as AttrType,
  })),
  ...NODE_FIELDS.map((name) => ({
    id: `snapshot_${name}`,
    for: 'node' as const,
    name,
    type: (NUMBER_FIELDS.has(name) ? 'double' : 'string') as AttrType,
  })),
  ...EDGE_FIELDS.map((name) => ({
    id: `edge_${name}`,
    for: 'edge' as const,
    name,
    type: (NUMBER_FIELDS.has(name) ? 'double' : 'string') as AttrType,
  })),
];

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/**
 * Characters XML 1.0 cannot hold at all, not even as a character reference: the C0 controls but
 * tab, line feed and carriage return, lone surrogates, U+FFFE and U+FFFF. The API accepts them in
 * text, so a value holding any is written as JSON text (which spells them `\u0000`) in a
 * `<data encoding="json">` element, and read back from it: the export stays well-formed XML and
 * imports back exactly.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const jsonXmlSafe = (value: unknown) =>
  JSON.stringify(value).replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

function dataElements(prefix: string, fields: readonly string[], data: Record<string, unknown>): string {
  let out = '';
  for (const field of fields) {
    const value = data[field];
    if (value === null || value === undefined) continue;
    // JSON text spells every control character and lone surrogate as an escape already.
    if (JSON_FIELDS.has(field)) out += `<data key="${prefix}_${field}">${escape(jsonXmlSafe(value))}</data>`;
    else if (typeof value === 'string' && NOT_XML.test(value))
      out += `<data key="${prefix}_${field}" encoding="json">${escape(jsonXmlSafe(value))}</data>`;
    else out += `<data key="${prefix}_${field}">${escape(String(value))}</data>`;
  }
  return out;
}

/** The GraphML text of a brain's records, in pieces. */
export async function* graphmlDocument(records: AsyncIterable<ExportRecord>): AsyncIterable<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="${NAMESPACE}">\n`;
  yield `<!-- ${FORMAT_NAME} version ${FORMAT_VERSION} -->\n`;
  for (const key of KEYS) {
    yield `<key id="${key.id}" for="${key.for}" attr.name="${key.name}" attr.type="${key.type}"/>\n`;
  }
  let open = false;
  for await (const { kind, data } of records) {
    if (kind === 'brain') {
      yield `<graph id="${escape(data.id as string)}" edgedefault="directed">${dataElements('brain', BRAIN_FIELDS, data)}\n`;
      open = true;
    } else if (kind === 'snapshot') {
      yield `<node id="${escape(data.id as string)}">${dataElements('snapshot', NODE_FIELDS, data)}</node>\n`;
    } else if (kind === 'edge') {
      const undirected = data.edge_type === 'related_to' ? ' directed="false"' : '';
      yield `<edge id="${escape(data.id as string)}" source="${escape(data.source_id as string)}" target="${escape(
        data.target_id as string,
      )}"${undirected}>${dataElements('edge', EDGE_FIELDS, data)}</edge>\n`;
    }
  }
  if (open) yield '</graph>\n';
  yield '</graphml>\n';
}

/**
 * What a GraphML file may hold before it is refused (a file of Snapgraph's own nests 4 deep and
 * has about 40 keys; its longest value is a snapshot's 20,000-character text). The parser keeps
 * every open element and every key, and a value's text, in memory: without these bounds one
 * upload of nested tags (`<a><a><a>…`, millions deep) took gigabytes and minutes of the event
 * loop to parse and to fail.
 */
export const GRAPHML_LIMITS = { depth: 32, keys: 1_000, valueCharacters: 1_000_000 } as const;

/** A GraphML value back as the field's value: numbers, booleans and JSON fields parsed. */
function fieldValue(name: string, text: string, type: string | undefined): unknown {
  if (JSON_FIELDS.has(name)) return JSON.parse(text);
  if (type === 'double' || type === 'float' || type === 'int' || type === 'long' || NUMBER_FIELDS.has(name)) {
    return text.trim() === '' ? text : Number(text);
  }
  if (type === 'boolean' || name === 'auto_link') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/**
 * GraphML read back as the lines of an export file (a header, the brain, snapshots, edges and
 * an end line), so that it goes through the same checks and import. A record's line is the
 * line of the XML element it came from. The file is parsed as it is read: memory stays flat.
 */
export async function* graphmlLines(
  path: string,
  position: ReadPosition = { bytesRead: 0 },
  text?: (chunk: string) => void,
): AsyncIterable<SourceLine> {
  const parser = new SaxesParser({ position: true });
  const keys = new Map<string, { name: string; type: string | undefined }>();
  const out: SourceLine[] = [];
  const counts: Record<string, number> = {};
  let element: { kind: 'brain' | 'snapshot' | 'edge'; line: number; data: Record<string, unknown> } | undefined;
  let brain: { line: number; data: Record<string, unknown> } | undefined;
  let dataKey: string | undefined;
  let dataText = '';
  let dataJson = false;
  let failed = false;
  let headerDone = false;
  let graphs = 0;
  let graphId: string | undefined;

  const emit = (line: number, kind: string, data: Record<string, unknown>) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
    out.push({ line, value: { kind, data } });
  };
  const flushBrain = () => {
    if (brain) emit(brain.line, 'brain', brain.data);
    brain = undefined;
  };

  // Once failed, the parser is given no more text and is never closed: closing it with thousands
  // of elements open would make an error object for each.
  const fail = (reason: string) => {
    if (!failed) out.push({ line: parser.line, error: reason });
    failed = true;
  };
  parser.on('error', (err) => fail(`not well-formed GraphML: ${err.message}`));
  // The parser holds text (a value, an attribute, a tag) until the `<` or `>` that ends it and
  // says nothing meanwhile: what it was given since its last event is what it holds. (One
  // handler an event: saxes replaces a handler set twice.)
  let unparsed = 0;
  let depth = 0;
  parser.on('opentag', (tag) => {
    unparsed = 0;
    if (failed) return;
    if (++depth > GRAPHML_LIMITS.depth) {
      fail(`elements nested more than ${GRAPHML_LIMITS.depth} deep: not a GraphML graph Snapgraph can read`);
      return;
    }
    const attributes = tag.attributes as Record<string, string>;
    const line = parser.line;
    if (tag.name === 'key' && keys.size >= GRAPHML_LIMITS.keys && !keys.has(attributes.id ?? '')) {
      fail(`more than ${GRAPHML_LIMITS.keys} <key> elements`);
    } else if (tag.name === 'key' && attributes.id) {
      keys.set(attributes.id, { name: attributes['attr.name'] ?? attributes.id, type: attributes['attr.type'] });
    } else if (tag.name === 'graph') {
      if (++graphs > 1) {
        out.push({ line, error: 'a second graph: one GraphML file holds one brain' });
        return;
      }
      headerDone = true;
      graphId = attributes.id;
      out.push({
        line: 1,
        value: {
          format: FORMAT_NAME,
          version: FORMAT_VERSION,
          exported_at: new Date().toISOString(),
          brain_id: attributes.id,
          sections: [],
        },
      });
      brain = { line, data: { id: attributes.id } };
      element = { kind: 'brain', line, data: brain.data };
    } else if (tag.name === 'node') {
      flushBrain();
      element = { kind: 'snapshot', line, data: { id: attributes.id, brain_id: graphId } };
    } else if (tag.name === 'edge') {
      flushBrain();
      element = {
        kind: 'edge',
        line,
        data: { id: attributes.id, brain_id: graphId, source_id: attributes.source, target_id: attributes.target },
      };
    } else if (tag.name === 'data') {
      dataKey = attributes.key;
      dataText = '';
      dataJson = attributes.encoding === 'json';
    }
  });
  parser.on('text', (t) => {
    unparsed = 0;
    if (dataKey === undefined || failed) return;
    dataText += t;
    if (dataText.length > GRAPHML_LIMITS.valueCharacters) {
      fail(`a <data> value longer than ${GRAPHML_LIMITS.valueCharacters} characters`);
      dataText = '';
    }
  });
  let lastLine = 1;
  parser.on('closetag', (tag) => {
    unparsed = 0;
    depth--;
    if (failed) return;
    lastLine = parser.line;
    if (tag.name === 'data' && dataKey !== undefined && element) {
      const key = keys.get(dataKey);
      const name = key?.name ?? dataKey;
      try {
        const raw = dataJson ? JSON.parse(dataText) : dataText;
        element.data[name] = typeof raw === 'string' ? fieldValue(name, raw, key?.type) : raw;
      } catch {
        out.push({ line: parser.line, error: `${name} is not valid JSON text` });
      }
      dataKey = undefined;
    } else if (tag.name === 'node' || tag.name === 'edge') {
      if (element) emit(element.line, element.kind, withNulls(element.kind, element.data));
      element = undefined;
    } else if (tag.name === 'graph') {
      flushBrain();
    }
  });

  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  for await (const chunk of stream as AsyncIterable<string>) {
    position.bytesRead = stream.bytesRead;
    text?.(chunk);
    unparsed += chunk.length;
    if (!failed) parser.write(chunk);
    if (unparsed > GRAPHML_LIMITS.valueCharacters) {
      fail(`a value, attribute or tag longer than ${GRAPHML_LIMITS.valueCharacters} characters`);
    }
    yield* out.splice(0);
  }
  if (!failed) parser.close();
  if (!headerDone && !failed) out.push({ line: 1, error: 'no <graph> element: not a GraphML graph' });
  if (headerDone && !failed) out.push({ line: lastLine + 1, value: { kind: END_KIND, counts } });
  yield* out.splice(0);
}

/** Fields a GraphML element left out are null (optional ones) — as in an export's records. */
function withNulls(kind: string, data: Record<string, unknown>): Record<string, unknown> {
  const fields = kind === 'snapshot' ? SNAPSHOT_COLUMNS : EDGE_COLUMNS;
  const out: Record<string, unknown> = {};
  for (const field of fields) out[field] = data[field] ?? (field === 'tags' ? [] : null);
  return out;
}
