import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * Fastify's close: stop accepting, answer 503 to new requests on open connections, wait for those in flight. A
 * keep-alive connection whose request was in flight when closing began becomes idle only afterwards, and Node's
 * server.close() closes only the connections idle at that moment: without the sweep it would hold the shutdown for the
 * whole keep-alive timeout.
 */
export async function closeHttp(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

/**
 * The order in which a process lets go on SIGTERM: stop taking requests and finish the ones in flight, then stop the
 * job workers after their current job (issue 15's queue adds its step here, between the two), then close the
 * database. A step that hangs past the timeout ends the process anyway, with exit code 1.
 */
export interface Lifecycle {
  /** Adds a step to the shutdown; steps run one after another in the order they were added. */
  onShutdown(name: string, stop: () => Promise<void>): void;
  shutdown(reason: string): Promise<void>;
}

export function createLifecycle(options: { log: Logger; timeoutMs: number; exit?: (code: number) => void }): Lifecycle {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const steps: { name: string; stop: () => Promise<void> }[] = [];
  let stopping: Promise<void> | null = null;

  async function run(reason: string): Promise<void> {
    options.log.info({ reason }, 'deteniendo');
    const timer = setTimeout(() => {
      options.log.error({ timeoutMs: options.timeoutMs }, 'la detención excedió su tiempo; saliendo');
      exit(1);
    }, options.timeoutMs);
    timer.unref();
    let failed = false;
    for (const step of steps) {
      try {
        await step.stop();
        options.log.info({ step: step.name }, 'detenido');
      } catch (error) {
        failed = true;
        options.log.error({ err: error, step: step.name }, 'falló un paso de la detención');
      }
    }
    clearTimeout(timer);
    exit(failed ? 1 : 0);
  }

  return {
    onShutdown(name, stop) {
      steps.push({ name, stop });
    },
    shutdown(reason) {
      stopping ??= run(reason);
      return stopping;
    },
  };
}
