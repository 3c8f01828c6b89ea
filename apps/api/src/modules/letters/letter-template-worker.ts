import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * Budgets for reading an uploaded background (issue 44). A letterhead's first page is a few hundred objects and well
 * under a megabyte; past these it is refused with its reason rather than kept to stall every letter.
 */
export const TEMPLATE_BUDGET = {
  /**
   * The worker thread's own processor time for parsing and re-saving the first page, which a busy machine does not
   * lengthen as it does the wall clock (a legitimate letterhead is not refused because the server is busy). The worker
   * checks it between pdf-lib's parse steps (template-worker.mjs).
   */
  timeMs: 5_000,
  /** A hang guard in wall time, for a worker that never yields to check its own time: this many times `timeMs`. */
  wallFactor: 12,
  /** The worker's heap: a PDF that needs more is refused, the API's memory is not at stake. */
  heapMb: 256,
  /** The normalized first page: indirect objects and bytes. */
  maxObjects: 5_000,
  maxBytes: 3 * 1024 * 1024,
} as const;

export type CanvasRefusal = 'encrypted' | 'unreadable' | 'no-pages' | 'too-complex' | 'too-large' | 'too-slow';

export type CanvasResult = { canvas: Buffer; width: number; height: number } | { refused: CanvasRefusal };

/** The worker's file: beside this module in the sources, beside the bundle's chunks in dist/. */
function workerUrl(): URL {
  const candidates = [new URL('./template-worker.mjs', import.meta.url), new URL('./template-worker.js', import.meta.url)];
  return candidates.find((url) => existsSync(url)) ?? candidates[0]!;
}

/**
 * The background's first page, alone, re-saved by pdf-lib in a worker thread under TEMPLATE_BUDGET: what letters are
 * drawn on, so issuing one never parses the uploaded file again. A worker per call: the one that overruns is
 * terminated without touching anything else.
 */
export function normalizeBackground(
  bytes: Uint8Array,
  budget: Partial<Record<keyof typeof TEMPLATE_BUDGET, number>> = {},
): Promise<CanvasResult> {
  const limits = { ...TEMPLATE_BUDGET, ...budget };
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(), { resourceLimits: { maxOldGenerationSizeMb: limits.heapMb } });
    let settled = false;
    const settle = (result: CanvasResult | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    // The budget is the parse's processor time, counted by the worker from when the started worker takes the bytes:
    // starting a thread (loading pdf-lib into it) is the machine's cost, seconds on a busy one, not the file's. The wall
    // clock only guards against a worker that stops answering.
    let timer: NodeJS.Timeout | undefined;
    worker.on('message', (answer: { ready?: true; canvas?: Uint8Array; width?: number; height?: number; refused?: CanvasRefusal }) => {
      if (answer.ready) {
        timer = setTimeout(() => settle({ refused: 'too-slow' }), limits.timeMs * limits.wallFactor);
        const copy = new Uint8Array(bytes);
        worker.postMessage({ bytes: copy, maxBytes: limits.maxBytes, maxObjects: limits.maxObjects, timeMs: limits.timeMs }, [copy.buffer]);
      } else if (answer.canvas) settle({ canvas: Buffer.from(answer.canvas), width: answer.width!, height: answer.height! });
      else settle({ refused: answer.refused ?? 'unreadable' });
    });
    // Out of its heap budget the worker dies with ERR_WORKER_OUT_OF_MEMORY: a PDF too complex, not a server fault.
    worker.once('error', (error: Error & { code?: string }) =>
      settle(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { refused: 'too-complex' } : error),
    );
    worker.once('exit', () => settle({ refused: 'unreadable' }));
  });
}

/** What the uploader reads for each refusal. */
export const CANVAS_REFUSALS: Record<CanvasRefusal, string> = {
  encrypted: 'El PDF de fondo está cifrado o protegido con contraseña.',
  unreadable: 'El PDF de fondo está dañado o no se puede leer.',
  'no-pages': 'El PDF de fondo no tiene páginas.',
  'too-complex': `El PDF de fondo es demasiado complejo (más de ${TEMPLATE_BUDGET.maxObjects.toLocaleString('es-MX')} objetos en su primera página): guárdalo de nuevo como un PDF sencillo de una página.`,
  'too-large': `La primera página del PDF de fondo pesa más de ${TEMPLATE_BUDGET.maxBytes / (1024 * 1024)} MB: redúcela (imágenes más ligeras) y vuelve a subirla.`,
  'too-slow': `El PDF de fondo tarda más de ${TEMPLATE_BUDGET.timeMs / 1000} segundos en leerse: guárdalo de nuevo como un PDF sencillo de una página.`,
};
