import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export { startLiveServer, type LiveServer } from '../../client/test/live-server.js';

/** The built program, as an assistant launches it (`npm run build` first). */
export const BIN = fileURLToPath(new URL('../bin/snapgraph-mcp.js', import.meta.url));

const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' });

/** The SDK's own client, talking to `snapgraph-mcp` over stdio. */
export async function connectStdio(snapgraphUrl: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: 'snapgraph-mcp-test', version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN],
    env: { ...baseEnv(), SNAPGRAPH_URL: snapgraphUrl, SNAPGRAPH_API_KEY: apiKey },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

export interface HttpMcp {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** `snapgraph-mcp --http` on a free port; resolves with its endpoint once it listens. */
export async function startHttpMcp(snapgraphUrl: string, apiKey?: string): Promise<HttpMcp> {
  const child = spawn(process.execPath, [BIN, '--http', '--port', '0'], {
    env: { ...baseEnv(), SNAPGRAPH_URL: snapgraphUrl, ...(apiKey ? { SNAPGRAPH_API_KEY: apiKey } : {}) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`snapgraph-mcp did not start: ${output}`)), 20_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /Streamable HTTP at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`snapgraph-mcp exited ${code}: ${output}`));
    });
  });
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The SDK's own client over Streamable HTTP. */
export async function connectHttp(endpoint: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'snapgraph-mcp-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } }));
  return client;
}

/**
 * How long a tool call may take before the SDK gives up on it: a hang guard, not a judgement of
 * speed. The SDK's default (60 s) is shorter than a crystallize takes when CI runs this suite at a
 * low priority beside the server's (scripts/ci/node-lines.sh), where one timed out at 60 s.
 */
const TOOL_CALL_TIMEOUT_MS = 300_000;

/** A tool call's structured answer; fails the test when the tool reported an error. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: TOOL_CALL_TIMEOUT_MS,
  })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  const text = result.content[0];
  if (text?.type !== 'text') throw new Error(`${name} answered no text`);
  return JSON.parse(text.text);
}

/** A tool call that must fail: its error as the tool reported it. */
export async function callFailing(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; error: any }> {
  const result = (await client.callTool({ name, arguments: args }, undefined, {
    timeout: TOOL_CALL_TIMEOUT_MS,
  })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} succeeded: ${JSON.stringify(result.content)}`);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { text, error: (result.structuredContent as { error?: unknown } | undefined)?.error };
}
