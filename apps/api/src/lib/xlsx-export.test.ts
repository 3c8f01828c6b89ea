import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { CELL_TEXT_LIMIT, fitCells, sendXlsx } from './xlsx-export';
import { until } from '../test/until';

/** An export of an endless list of text that barely compresses, over real HTTP: how many batches it has read so far. */
async function endlessExport(): Promise<{
  app: FastifyInstance;
  url: string;
  reads: () => number;
  quietFor: () => number;
  left: Promise<void>;
}> {
  let reads = 0;
  let lastRead = Date.now();
  let leave: () => void = () => undefined;
  const left = new Promise<void>((resolve) => (leave = resolve));
  // A test that fails midway must not leave its connection holding the server open.
  const app = Fastify({ forceCloseConnections: true });
  app.get('/export.xlsx', (request, reply) => {
    request.raw.socket.on('close', leave);
    return sendXlsx(request, reply, {
      filename: 'sin-fin.xlsx',
      sheet: 'Filas',
      columns: [
        { header: 'Número', key: 'n', width: 10 },
        { header: 'Texto', key: 'text', width: 40 },
      ],
      read: async ({ offset }, limit) => {
        reads += 1;
        lastRead = Date.now();
        return Array.from({ length: limit }, (_, index) => ({ n: offset + index, text: randomBytes(48).toString('base64') }));
      },
      toCells: (row) => row,
    });
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/export.xlsx`,
    reads: () => reads,
    quietFor: () => Date.now() - lastRead,
    left,
  };
}

/**
 * Until the export has read nothing for a second: a condition, under the test's own timeout, not a fixed budget. An
 * export that does not wait for its client reads hundreds of batches a second and never gets there: the test fails.
 */
const untilQuiet = (endless: { quietFor: () => number }, signal: AbortSignal) =>
  until(() => endless.quietFor() >= 1_000, { signal, intervalMs: 100 });

describe('a cell as a workbook holds it', () => {
  it('cuts a text over 32,767 characters to the limit with an ellipsis, never through a surrogate pair, and leaves the rest alone', () => {
    const long = 'a'.repeat(60_000);
    const fitted = fitCells({ n: 7, short: 'hola', long, none: null });
    expect(fitted).toMatchObject({ n: 7, short: 'hola', none: null });
    expect((fitted.long as string).length).toBe(32_767);
    expect((fitted.long as string).endsWith('a…')).toBe(true);
    expect(fitCells({ exact: 'b'.repeat(32_767) }).exact).toBe('b'.repeat(32_767));
    // An emoji (two UTF-16 units) across the cut is left out whole, not halved.
    const emoji = `${'c'.repeat(32_765)}😀${'d'.repeat(10)}`;
    const cut = fitCells({ emoji }).emoji as string;
    expect(cut).toBe(`${'c'.repeat(32_765)}…`);
  });

  it('writes a long line into the download cut to the limit, so the workbook opens without repair', async () => {
    const app = Fastify();
    app.get('/x.xlsx', (request, reply) =>
      sendXlsx(request, reply, {
        filename: 'x.xlsx',
        sheet: 'Filas',
        columns: [{ header: 'Texto', key: 'text', width: 40 }],
        read: async ({ offset }) => (offset === 0 ? [{ text: 'x'.repeat(60_038) }] : []),
        toCells: (row) => row,
      }),
    );
    const answer = await app.inject({ method: 'GET', url: '/x.xlsx' });
    await app.close();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(answer.rawPayload as unknown as ArrayBuffer);
    const text = book.getWorksheet('Filas')!.getCell('A2').value as string;
    expect(text.length).toBe(CELL_TEXT_LIMIT);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('xlsx list export', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it('reads the next batch only as the client takes the file, and stops reading when the client leaves', async ({ signal }) => {
    const endless = await endlessExport();
    app = endless.app;
    const request = http.get(endless.url);
    const response = await new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
    expect(response.statusCode).toBe(200);
    response.pause();
    // A client that reads nothing: once the sockets' buffers are full the export waits for it instead of piling
    // batches up in memory (without the wait it reads hundreds of batches a second). On a busy machine the buffers
    // take longer to fill: the reads are watched until a second passes without one.
    await untilQuiet(endless, signal);
    const whilePaused = endless.reads();
    expect(whilePaused).toBeLessThan(300);

    // Reading again lets it go on.
    response.resume();
    await until(() => endless.reads() > whilePaused, { signal });

    // The client leaves: once the server sees its socket close, the export reads at most the batch it was on.
    response.pause();
    request.destroy();
    await endless.left;
    const afterLeaving = endless.reads();
    await untilQuiet(endless, signal);
    expect(endless.reads()).toBeLessThanOrEqual(afterLeaving + 1);
  });
});

describe('an export that fails before its first byte', () => {
  it('answers an error the client can read, not a 200 cut short (issue 44)', async () => {
    const app = Fastify();
    app.get('/x.xlsx', (request, reply) =>
      sendXlsx(request, reply, {
        filename: 'x.xlsx',
        sheet: 'Filas',
        columns: [{ header: 'Texto', key: 'text', width: 40 }],
        read: () => Promise.reject(new Error('date/time field value out of range: "0000-01-01"')),
        toCells: (row) => row,
      }),
    );
    const answer = await app.inject({ method: 'GET', url: '/x.xlsx' });
    expect(answer.statusCode).toBe(500);
    expect(answer.headers['content-type']).toContain('json');
    expect(answer.headers['content-disposition']).toBeUndefined();
    await app.close();
  });
});
