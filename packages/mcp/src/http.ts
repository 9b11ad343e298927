import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SnapgraphClient } from '@snapgraph/client';
import type { McpConfig } from './config.js';
import { createServer } from './server.js';

export const MCP_PATH = '/mcp';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const MAX_CLIENTS = 100;

/**
 * Streamable HTTP at /mcp, stateless: each POST gets a fresh MCP server and transport (tools
 * keep no session state, so any instance can answer any request). A caller's own
 * `Authorization: Bearer sg_…` is passed through to Snapgraph; without one, the configured key
 * is used, so the port must not be reachable by strangers: it listens on 127.0.0.1 by default
 * and, there, refuses other Host and Origin headers (DNS rebinding).
 */
export async function serveHttp(config: McpConfig): Promise<Server> {
  const clients = new Map<string, SnapgraphClient>();
  const clientFor = (apiKey: string) => {
    let client = clients.get(apiKey);
    if (!client) {
      if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value as string);
      client = new SnapgraphClient({ baseUrl: config.baseUrl, apiKey });
      clients.set(apiKey, client);
    }
    return client;
  };
  const loopbackOnly = LOOPBACK.has(config.host);

  const httpServer = createHttpServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('snapgraph-mcp: request failed', err);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_PATH) return jsonRpcError(res, 404, -32601, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (loopbackOnly && !fromLoopbackPage(req)) {
      return jsonRpcError(res, 403, -32600, 'Forbidden: Host or Origin is not this machine');
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return jsonRpcError(res, 405, -32000, 'Method not allowed: this server is stateless, POST only');
    }
    const apiKey = bearer(req) ?? config.apiKey;
    if (!apiKey) {
      res.setHeader('www-authenticate', 'Bearer');
      return jsonRpcError(res, 401, -32001, 'Unauthorized: send Authorization: Bearer <Snapgraph API key>');
    }
    const server = createServer(clientFor(apiKey));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  return httpServer;
}

/** The address a started server answers at, e.g. http://127.0.0.1:3333/mcp. */
export function endpointOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${port}${MCP_PATH}`;
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function fromLoopbackPage(req: IncomingMessage): boolean {
  const hostname = (value: string) => {
    try {
      return new URL(value.includes('://') ? value : `http://${value}`).hostname;
    } catch {
      return '';
    }
  };
  const host = req.headers.host;
  if (host === undefined || !LOOPBACK.has(hostname(host))) return false;
  const origin = req.headers.origin;
  return origin === undefined || origin === 'null' ? origin === undefined : LOOPBACK.has(hostname(origin));
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
