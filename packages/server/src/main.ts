import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { warmUpNextTick } from './warm-up.js';

export interface RunningServer {
  app: FastifyInstance;
  address: string;
  stop(): Promise<void>;
}

/**
 * Starts the HTTP server and stops it cleanly on SIGTERM or SIGINT. First a short drain
 * (SHUTDOWN_DRAIN_MS): readiness fails so a load balancer moves new traffic away, responses
 * close their connections, and connections already queued in the kernel's backlog — whose
 * clients have sent their requests — are still accepted and answered instead of being reset.
 * Then stop accepting, let the requests in flight finish, and close the database.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  warmUpNextTick();
  const app = await buildApp({ config });
  const address = await app.listen({ port: config.port, host: config.host });
  const activeKeys = await app.domain.store.countActiveApiKeys();
  if (activeKeys === 0) {
    app.log.warn('no API key exists yet; create one with: npx snapgraph keys create --plan free');
    process.stderr.write(
      '\nNo API key exists yet. Create one (it is shown once) with:\n  npx snapgraph keys create --plan free\n\n',
    );
  }

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const timer = setTimeout(() => {
        app.log.error('shutdown timed out; exiting');
        process.exit(1);
      }, config.shutdownTimeoutMs);
      timer.unref();
      app.lifecycle.draining = true;
      if (config.shutdownDrainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      await app.close();
      clearTimeout(timer);
    })();
    return stopping;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      stop().then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { app, address, stop };
}
