// The README's example calls (its `curl` lines), read back as openapi-fetch calls, so that a test
// can compile them against types generated from the served document: what the README shows a
// user must be expressible, unchanged, with a generated client.
import { readFileSync } from 'node:fs';

export interface ReadmeCall {
  /** The curl command as the README writes it, on one line. */
  source: string;
  method: string;
  /** The document's path template, e.g. /v1/snapshots/{id}. */
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string | number | boolean>;
  body: unknown;
}

/** The example calls of a Markdown file (the README, docs/api.md). */
export function readmeCalls(readmePath: string, doc: any): ReadmeCall[] {
  const text = readFileSync(readmePath, 'utf8');
  const blocks = [...text.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  // A file upload (`--data-binary @file`, the import) has no JSON body a generated client could
  // be typed against: such calls are left out, every other one is read.
  return blocks
    .flatMap(curlCommands)
    .filter((command) => !/--data-binary @/.test(command))
    .map((command) => toCall(command, doc));
}

/**
 * One string per curl command: a quoted body may span several lines, as may a command whose
 * line ends with a backslash; trailing comments go.
 */
function curlCommands(block: string): string[] {
  const commands: string[] = [];
  let current: string | undefined;
  for (const line of block.split('\n')) {
    if (current === undefined && !line.trimStart().startsWith('curl ')) continue;
    current = current === undefined ? line.trim() : `${current} ${line.trim()}`;
    if (current.endsWith('\\')) {
      current = current.slice(0, -1).trimEnd();
      continue;
    }
    if ((current.match(/'/g) ?? []).length % 2 === 0) {
      commands.push(withoutComment(current));
      current = undefined;
    }
  }
  return commands;
}

function withoutComment(command: string): string {
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && command[i - 1] === ' ') return command.slice(0, i).trim();
  }
  return command;
}

function toCall(source: string, doc: any): ReadmeCall {
  const method = /-X (\w+)/.exec(source)?.[1] ?? (source.includes(' -d ') ? 'POST' : 'GET');
  const target = /"?\$SG(\/[^\s"]*)"?/.exec(source)?.[1];
  if (!target) throw new Error(`no $SG URL in: ${source}`);
  const bodyText = / -d '([\s\S]*)'/.exec(source)?.[1];
  const [pathname, search = ''] = target.split('?') as [string, string?];
  const { template, pathParams } = matchPath(pathname, doc, source);
  const operation = doc.paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${template} is not in the document (README: ${source})`);
  const query: ReadmeCall['query'] = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const type = operation.parameters?.find((p: any) => p.in === 'query' && p.name === name)?.schema?.type;
    query[name] =
      type === 'integer' || type === 'number' ? Number(value) : type === 'boolean' ? value === 'true' : value;
  }
  return { source, method, path: template, pathParams, query, body: bodyText ? JSON.parse(bodyText) : undefined };
}

/** The document's path the README's URL is an instance of; literal segments win over parameters. */
function matchPath(pathname: string, doc: any, source: string) {
  const segments = pathname.split('/');
  let best: { template: string; pathParams: Record<string, string>; literals: number } | undefined;
  for (const template of Object.keys(doc.paths)) {
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    const pathParams: Record<string, string> = {};
    let literals = 0;
    const fits = parts.every((part, i) => {
      const parameter = /^\{(\w+)\}$/.exec(part)?.[1];
      if (parameter) pathParams[parameter] = segments[i] as string;
      else if (part === segments[i]) literals += 1;
      return parameter !== undefined || part === segments[i];
    });
    if (fits && (!best || literals > best.literals)) best = { template, pathParams, literals };
  }
  if (!best) throw new Error(`no documented path for ${pathname} (README: ${source})`);
  return best;
}

/** The calls as a TypeScript module over openapi-fetch, typed by the generated `paths`. */
export function readmeCallsModule(calls: ReadmeCall[], schemaModule: string): string {
  const lines = calls.map((call) => {
    const params: Record<string, unknown> = {};
    if (Object.keys(call.pathParams).length > 0) params.path = call.pathParams;
    if (Object.keys(call.query).length > 0) params.query = call.query;
    const init: Record<string, unknown> = {};
    if (Object.keys(params).length > 0) init.params = params;
    if (call.body !== undefined) init.body = call.body;
    const args = Object.keys(init).length > 0 ? `, ${JSON.stringify(init)}` : '';
    return `  // ${call.source.replaceAll('\n', ' ')}\n  await client.${call.method}('${call.path}'${args});`;
  });
  return [
    "import createClient from 'openapi-fetch';",
    `import type { paths } from '${schemaModule}';`,
    '',
    "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080' });",
    '',
    'export async function readmeCalls(): Promise<void> {',
    ...lines,
    '}',
    '',
  ].join('\n');
}
