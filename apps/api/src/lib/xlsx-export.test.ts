import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { CELL_TEXT_LIMIT, fitCells, sendXlsx } from './xlsx-export';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An export of an endless list of text that barely compresses, over real HTTP: how many batches it has read so far. */
async function endlessExport(): Promise<{ app: FastifyInstance; url: string; reads: () => number }> {
  let reads = 0;
  // A test that fails midway must not leave its connection holding the server open.
  const app = Fastify({ forceCloseConnections: true });
  app.get('/export.xlsx', (request, reply) =>
    sendXlsx(request, reply, {
      filename: 'sin-fin.xlsx',
      sheet: 'Filas',
      columns: [
        { header: 'Número', key: 'n', width: 10 },
        { header: 'Texto', key: 'text', width: 40 },
      ],
      read: async ({ offset }, limit) => {
        reads += 1;
        return Array.from({ length: limit }, (_, index) => ({ n: offset + index, text: randomBytes(48).toString('base64') }));
      },
      toCells: (row) => row,
    }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/export.xlsx`, reads: () => reads };
}

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

  it('reads the next batch only as the client takes the file, and stops reading when the client leaves', async () => {
    const endless = await endlessExport();
    app = endless.app;
    const request = http.get(endless.url);
    const response = await new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
    expect(response.statusCode).toBe(200);
    response.pause();
    // A client that reads nothing: once the sockets' buffers are full the export waits for it instead of piling
    // batches up in memory (without the wait it reads hundreds of batches a second). On a busy machine the buffers
    // take longer to fill: the reads are watched until a second passes without one (15 s at most).
    let whilePaused = endless.reads();
    for (let waited = 0; waited < 15_000; waited += 1_000) {
      await wait(1_000);
      const now = endless.reads();
      if (now === whilePaused) break;
      whilePaused = now;
    }
    await wait(1_500);
    expect(endless.reads()).toBe(whilePaused);
    expect(whilePaused).toBeLessThan(300);

    // Reading again lets it go on.
    response.resume();
    await wait(1_000);
    expect(endless.reads()).toBeGreaterThan(whilePaused);

    // The client leaves: the reading stops.
    request.destroy();
    await wait(500);
    const afterLeaving = endless.reads();
    await wait(1_000);
    expect(endless.reads()).toBeLessThanOrEqual(afterLeaving + 1);
  }, 30_000);
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
