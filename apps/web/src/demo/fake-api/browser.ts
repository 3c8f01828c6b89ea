import { setupWorker } from 'msw/browser';
import { removeLeftoverWorkers } from '../../lib/service-workers';
import { createHandlers } from './handlers';

/**
 * The fake API's service worker, started when a demo screen opens and stopped when the user leaves the demo: while
 * it is stopped the worker lets every request go straight to the network, so product screens and their uploads never
 * pass through it. Start and stop calls are queued, so a quick back-and-forth cannot interleave them.
 */
let worker: ReturnType<typeof setupWorker> | undefined;
let running = false;
let queue: Promise<void> = Promise.resolve();

export function startFakeApi(): Promise<void> {
  queue = queue.then(async () => {
    if (running) return;
    // After the start-up removal of leftover workers, or it could remove this one.
    await removeLeftoverWorkers();
    worker ??= setupWorker(...createHandlers());
    await worker.start({ onUnhandledRequest: 'bypass', quiet: true, serviceWorker: { url: '/mockServiceWorker.js' } });
    running = true;
  });
  return queue;
}

export function stopFakeApi(): Promise<void> {
  queue = queue.then(() => {
    if (!running) return;
    worker?.stop();
    running = false;
  });
  return queue;
}
