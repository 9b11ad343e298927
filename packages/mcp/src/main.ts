import { readConfig, USAGE, UsageError } from './config.js';
import { endpointOf, serveHttp } from './http.js';
import { serveStdio } from './stdio.js';

/**
 * The snapgraph-mcp program. Everything human-readable goes to stderr: over stdio, stdout
 * carries the protocol.
 */
export async function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  let config;
  try {
    config = readConfig(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`snapgraph-mcp: ${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (config === 'help') {
    console.error(USAGE);
    return;
  }
  if (config.transport === 'stdio') {
    await serveStdio({ ...config, apiKey: config.apiKey as string });
    return;
  }
  const server = await serveHttp(config);
  console.error(`snapgraph-mcp: Streamable HTTP at ${endpointOf(server)} for ${config.baseUrl}`);
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
