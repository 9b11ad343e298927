import { parseArgs } from 'node:util';

export interface McpConfig {
  /** The Snapgraph service, without /v1. */
  baseUrl: string;
  /** The key every call uses (over HTTP, a caller's own `Authorization: Bearer` wins). */
  apiKey: string | undefined;
  transport: 'stdio' | 'http';
  host: string;
  port: number;
}

export const USAGE = `Usage: snapgraph-mcp [--http] [--host 127.0.0.1] [--port 3333]

A Model Context Protocol server for Snapgraph. Over stdio by default (what desktop assistants
launch); --http serves Streamable HTTP at http://HOST:PORT/mcp instead.

Environment:
  SNAPGRAPH_URL       the Snapgraph service (default http://127.0.0.1:8080)
  SNAPGRAPH_API_KEY   an sg_… API key (required for stdio; over HTTP a caller may send its own
                      Authorization: Bearer key instead)
  MCP_HOST, MCP_PORT  defaults for --host and --port`;

export class UsageError extends Error {}

export function readConfig(argv: readonly string[], env: Record<string, string | undefined>): McpConfig | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        http: { type: 'boolean', default: false },
        host: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.values.help) return 'help';
  const port = Number(parsed.values.port ?? env.MCP_PORT ?? 3333);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be 0 to 65535`);
  const apiKey = env.SNAPGRAPH_API_KEY?.trim() || undefined;
  const transport = parsed.values.http ? 'http' : 'stdio';
  if (transport === 'stdio' && apiKey === undefined) {
    throw new UsageError('SNAPGRAPH_API_KEY is not set: create one with `npx snapgraph keys create`');
  }
  const baseUrl = env.SNAPGRAPH_URL?.trim() || 'http://127.0.0.1:8080';
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`SNAPGRAPH_URL is not a URL: ${baseUrl}`);
  }
  return { baseUrl, apiKey, transport, host: parsed.values.host ?? env.MCP_HOST ?? '127.0.0.1', port };
}
