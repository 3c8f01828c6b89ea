import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { closeHttp, createLifecycle } from './lifecycle';
import { until } from './test/until';

const silent = pino({ level: 'silent' });

describe('the shutdown lifecycle', () => {
  it('finishes the request in flight, then runs the later steps in order, then exits 0', async () => {
    const app = Fastify();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inside = new Promise<void>((resolve) => (arrived = resolve));
    app.get('/lento', async () => {
      arrived();
      await held;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };

    const order: string[] = [];
    const exits: number[] = [];
    const lifecycle = createLifecycle({ log: silent, timeoutMs: 120_000, exit: (code) => exits.push(code) });
    lifecycle.onShutdown('http', async () => {
      await closeHttp(app);
      order.push('http');
    });
    lifecycle.onShutdown('database', async () => {
      order.push('database');
    });

    const inFlight = fetch(`http://127.0.0.1:${port}/lento`);
    await inside;
    const stopping = lifecycle.shutdown('SIGTERM');
    // A second signal does not start a second shutdown.
    expect(lifecycle.shutdown('SIGTERM')).toBe(stopping);
    // While the request is held, no step has finished: once the server has stopped listening (the first step under
    // way) and the event loop has turned, a shutdown that did not wait for the request would have run its steps.
    await until(() => !app.server.listening);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    await stopping;
    expect(order).toEqual(['http', 'database']);
    expect(exits).toEqual([0]);
    await expect(fetch(`http://127.0.0.1:${port}/lento`)).rejects.toThrow();
  });

  it('exits 1 when a step fails, after still running the others', async () => {
    const exits: number[] = [];
    const ran: string[] = [];
    const lifecycle = createLifecycle({ log: silent, timeoutMs: 120_000, exit: (code) => exits.push(code) });
    lifecycle.onShutdown('http', async () => {
      throw new Error('no cerró');
    });
    lifecycle.onShutdown('database', async () => {
      ran.push('database');
    });
    await lifecycle.shutdown('SIGTERM');
    expect(ran).toEqual(['database']);
    expect(exits).toEqual([1]);
  });

  it('exits 1 when a step hangs past the timeout', async () => {
    const exited = new Promise<number>((resolve) => {
      const lifecycle = createLifecycle({ log: silent, timeoutMs: 50, exit: resolve });
      lifecycle.onShutdown('jobs', () => new Promise(() => undefined));
      void lifecycle.shutdown('SIGTERM');
    });
    expect(await exited).toBe(1);
  });
});
