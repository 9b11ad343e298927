import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app.js';
import type { Config } from './config.js';
import { stopAcceptingOnceQueueEmpty } from './http/plugins/stop-accepting.js';
import { prettyLogs } from './logging.js';
import { printStartBanner, startInfo } from './start-banner.js';
import { warmUpNextTick } from './warm-up.js';

export interface RunningServer {
  app: FastifyInstance;
  address: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the HTTP server and stops it cleanly on SIGTERM or SIGINT (docs/deployment.md).
 *
 * Every request a client has sent before the signal is answered, however busy the machine is:
 * 1. Drain: readiness fails so a load balancer moves new traffic away, and responses close
 *    their connections. New connections are still accepted and answered, for at least
 *    SHUTDOWN_DRAIN_MS (the time a load balancer takes to notice), and then until the kernel's
 *    queue of connections waiting to be accepted is empty — found by the queue itself, not by
 *    a time the event loop may not get (stop-accepting.ts).
 * 2. Stop accepting; answer the requests in flight, then close the database and Redis.
 * SHUTDOWN_TIMEOUT_MS bounds the whole: past it the process exits 1 whatever is left.
 */
export async function startServer(config: Config, extra: Omit<AppOptions, 'config'> = {}): Promise<RunningServer> {
  warmUpNextTick();
  const starting = listen(config, extra);
  let stopping: Promise<void> | undefined;
  const stop = (signal?: NodeJS.Signals) => (stopping ??= starting.then(({ app }) => shutDown(app, config, signal)));
  // Handled from before the port opens: once the kernel accepts connections for us, SIGTERM must
  // drain them, not end the process (its default action) with their requests unread. A signal
  // that arrives while starting stops the server as soon as it has started.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stop(signal).then(
        () => process.exit(0),
        (err: unknown) => {
          process.stderr.write(`snapgraph: shutdown failed: ${(err as Error).message}\n`);
          process.exit(1);
        },
      );
    });
  }
  const { app, address } = await starting;
  const bound = app.server.address();
  const port = bound && typeof bound === 'object' ? bound.port : config.port;
  const activeKeys = await app.domain.store.keys.countActive();
  // On a terminal the pretty log and standard error are one screen: the advice is said once.
  const logIsTerminal = prettyLogs(config.logFormat) && process.stdout.isTTY === true && process.stderr.isTTY === true;
  printStartBanner(startInfo(config, port, activeKeys), app.log, logIsTerminal);
  return { app, address, stop };
}

async function listen(config: Config, extra: Omit<AppOptions, 'config'>) {
  const app = await buildApp({ ...extra, config });
  const address = await app.listen({ port: config.port, host: config.host });
  return { app, address };
}

async function shutDown(app: FastifyInstance, config: Config, signal?: NodeJS.Signals): Promise<void> {
  app.log.info({ signal }, 'shutting down');
  const startedAt = Date.now();
  const timer = setTimeout(() => {
    // The log is written in batches that process.exit does not wait for; stderr is written at
    // once, so the reason for exit code 1 is never lost.
    app.log.error('shutdown timed out; exiting');
    process.stderr.write(`snapgraph: shutdown timed out after ${config.shutdownTimeoutMs} ms; exiting\n`);
    process.exit(1);
  }, config.shutdownTimeoutMs);
  timer.unref();
  app.lifecycle.draining = true;
  if (config.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
  // Half the time bound for accepting at most, so traffic that never stops arriving still
  // leaves the other half for answering what was accepted.
  await stopAcceptingOnceQueueEmpty(app.server, startedAt + config.shutdownTimeoutMs / 2);
  app.log.info('stopped accepting connections; finishing the requests in flight');
  await app.close();
  clearTimeout(timer);
}
